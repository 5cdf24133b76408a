package io.chronix.ingest.importer;

import io.chronix.core.csv.P4CsvReader;
import io.chronix.core.csv.P4File;
import io.chronix.core.series.Points;
import io.chronix.ingest.protocol.influx.LineProtocolWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/**
 * Bulk-loads files of the Chronix benchmark CSV format into a running server: each file is read,
 * sent as gzipped line protocol to {@code /write}, and at the end {@code /flush} makes it all
 * queryable.
 */
public final class CsvImporter {

  private static final int POINTS_PER_REQUEST = 50_000;

  private final URI server;
  private final ZoneId zone;
  private final PrintStream log;
  private final Progress progress;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private String token;

  public CsvImporter(URI server, ZoneId zone, PrintStream log, boolean progressBar) {
    this.server = server;
    this.zone = zone;
    this.log = log;
    this.progress = new Progress(log, progressBar);
  }

  /** Sends the API token with every request (a server with auth on; docs/security.md). */
  public CsvImporter withToken(String token) {
    this.token = token == null || token.isBlank() ? null : token.trim();
    return this;
  }

  /** The outcome of an import. */
  public record Summary(int files, long points, long nanos, List<String> failures) {
    public double pointsPerSecond() {
      return nanos == 0 ? 0 : points * 1e9 / nanos;
    }
  }

  /** Files and directories (their *.csv and *.csv.gz files) to import. */
  public static List<Path> expand(List<Path> arguments) throws IOException {
    List<Path> files = new ArrayList<>();
    for (Path argument : arguments) {
      if (Files.isDirectory(argument)) {
        try (Stream<Path> list = Files.list(argument)) {
          list.filter(f -> f.getFileName().toString().matches(".*\\.csv(\\.gz)?")).sorted().forEach(files::add);
        }
      } else if (Files.isRegularFile(argument)) {
        files.add(argument);
      } else {
        throw new IOException("no such file or directory: " + argument);
      }
    }
    return files;
  }

  /** @throws ConnectException when no server answers */
  public Summary importFiles(List<Path> files, int parallelism) throws IOException, InterruptedException {
    ping();
    long started = System.nanoTime();
    progress.start(files.size());
    List<String> failures = new ArrayList<>();
    AtomicLong points = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, parallelism));
    try {
      List<Future<Long>> results = new ArrayList<>();
      for (Path file : files) {
        results.add(pool.submit(() -> {
          long sent = importFile(file);
          progress.fileDone(points.addAndGet(sent));
          return sent;
        }));
      }
      for (int i = 0; i < results.size(); i++) {
        try {
          results.get(i).get();
        } catch (java.util.concurrent.ExecutionException e) {
          Throwable cause = e.getCause();
          if (cause instanceof ConnectException) {
            throw (ConnectException) cause;
          }
          failures.add(cause.getMessage());
          progress.fileDone(points.get());
        }
      }
    } finally {
      pool.shutdownNow();
    }
    flush();
    progress.finish();
    return new Summary(files.size(), points.get(), System.nanoTime() - started, failures);
  }

  private long importFile(Path file) throws IOException, InterruptedException {
    P4File series = new P4CsvReader(zone).read(file);
    String prefix = LineProtocolWriter.seriesPrefix(series.key());
    Points points = series.points();
    StringBuilder batch = new StringBuilder(POINTS_PER_REQUEST * (prefix.length() + 48));
    for (int from = 0; from < points.size(); from += POINTS_PER_REQUEST) {
      batch.setLength(0);
      int to = Math.min(points.size(), from + POINTS_PER_REQUEST);
      for (int i = from; i < to; i++) {
        LineProtocolWriter.appendPoint(prefix, points.timestamp(i), points.value(i), batch);
      }
      send("/write?precision=ns", gzip(batch), file.getFileName().toString());
    }
    return points.size();
  }

  private void ping() throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(server.resolve("/ping")).timeout(Duration.ofSeconds(10)).GET().build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 204 || response.headers().firstValue("X-Chronix-Server").isEmpty()) {
      throw new IOException(server + " answers, but is not a Chronix server (GET /ping: " + response.statusCode() + ")");
    }
  }

  /** Writes the buffers as records; the points are durable and queryable without it, so a 403 is no failure. */
  private void flush() throws IOException, InterruptedException {
    try {
      send("/flush", new byte[0], "flush");
    } catch (ForbiddenException e) {
      log.println("note: not flushed (the token lacks the admin role); the points are stored and queryable,"
          + " and become records within chunk.maxAge");
    }
  }

  private static final class ForbiddenException extends IOException {
    ForbiddenException(String message) {
      super(message);
    }
  }

  private void send(String path, byte[] body, String what) throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(server.resolve(path))
        .timeout(Duration.ofMinutes(5))
        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    if (body.length > 0) {
      request.header("Content-Encoding", "gzip").header("Content-Type", "text/plain; charset=utf-8");
    }
    HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() == 403) {
      throw new ForbiddenException(what + ": server answered 403 " + response.body());
    }
    if (response.statusCode() / 100 != 2) {
      throw new IOException(what + ": server answered " + response.statusCode() + " " + response.body());
    }
  }

  private static byte[] gzip(StringBuilder text) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(text.length() / 8);
    try (GZIPOutputStream gzip = new GZIPOutputStream(out, 1 << 16) {
      {
        def.setLevel(Deflater.BEST_SPEED); // the wire is loopback: spend CPU on the server, not here
      }
    }) {
      gzip.write(text.toString().getBytes(StandardCharsets.UTF_8));
    }
    return out.toByteArray();
  }

  /** A progress bar on a terminal (progressbar library); nothing when output is not one. */
  private static final class Progress {
    private final PrintStream out;
    private final boolean enabled;
    private ProgressBar bar;

    Progress(PrintStream out, boolean enabled) {
      this.out = out;
      this.enabled = enabled;
    }

    synchronized void start(int files) {
      if (enabled) {
        bar = new ProgressBarBuilder().setTaskName("import").setInitialMax(files).setUnit(" files", 1)
            .setConsumer(new ConsoleProgressBarConsumer(out)).build();
      }
    }

    synchronized void fileDone(long points) {
      if (bar != null) {
        bar.step();
        bar.setExtraMessage(String.format("%,d points", points));
      }
    }

    synchronized void finish() {
      if (bar != null) {
        bar.close();
      }
    }
  }
}
