package io.chronix.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A VictoriaMetrics peer (Debian package, installed by {@code benchmarks/peers/victoria-metrics.sh})
 * as a child process on 127.0.0.1 with its own storage directory; its output goes to a log file
 * outside that directory, so that the log never counts as VictoriaMetrics' data.
 */
public final class VictoriaMetricsProcess implements AutoCloseable {

  static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final Process process;
  private final URI base;
  private final Path log;

  private VictoriaMetricsProcess(Process process, URI base, Path log) {
    this.process = process;
    this.base = base;
    this.log = log;
  }

  /** Installs the package when missing and returns the server binary's path. */
  public static String install() throws IOException, InterruptedException {
    return PeerPackages.install("victoria-metrics.sh");
  }

  public static String version(String binary) throws IOException, InterruptedException {
    String reported = String.join(" ", run(List.of(binary, "-version"))).trim();
    // Debian's build leaves the version string empty; the package version names the release
    String packaged = String.join(" ", run(List.of("dpkg-query", "-W", "-f=${Version}", "victoria-metrics"))).trim();
    return reported.isEmpty() ? "package " + packaged : reported + " (package " + packaged + ")";
  }

  /**
   * Starts VictoriaMetrics on a free loopback port and waits for {@code /health}. The retention
   * period is 100 years: P4 is from 2015, and older samples would be dropped at ingestion.
   */
  public static VictoriaMetricsProcess start(String binary, Path storage, Path log, String... flags) throws Exception {
    int port = freePort();
    List<String> command = new ArrayList<>(List.of(binary, "-storageDataPath=" + storage,
        "-httpListenAddr=127.0.0.1:" + port, "-retentionPeriod=100y"));
    command.addAll(List.of(flags));
    Process process = new ProcessBuilder(command)
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    VictoriaMetricsProcess vm = new VictoriaMetricsProcess(process, URI.create("http://127.0.0.1:" + port), log);
    try {
      vm.awaitHealthy();
    } catch (Exception | Error e) {
      vm.kill();
      throw e;
    }
    return vm;
  }

  public long pid() {
    return process.pid();
  }

  public URI base() {
    return base;
  }

  public Path log() {
    return log;
  }

  private void awaitHealthy() throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("VictoriaMetrics exited with " + process.exitValue() + " at start; log: " + log);
      }
      try {
        HttpResponse<String> health = get(base.resolve("/health"));
        if (health.statusCode() == 200 && health.body().trim().equals("OK")) {
          return;
        }
      } catch (IOException notYetListening) {
        // keep polling until the deadline
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException("VictoriaMetrics did not answer /health within 60 s; log: " + log);
  }

  /** SIGTERM, on which VictoriaMetrics flushes its buffers and writes its caches. */
  public void stop() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(2, TimeUnit.MINUTES)) {
      throw new IllegalStateException("VictoriaMetrics did not stop within 2 minutes; log: " + log);
    }
    if (process.exitValue() != 0) {
      // an unclean stop may leave buffers unflushed or caches unwritten: a size figure would be off
      throw new IllegalStateException("VictoriaMetrics exited with " + process.exitValue() + " on SIGTERM; log: " + log);
    }
  }

  public void kill() throws InterruptedException {
    if (process.isAlive()) {
      process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
  }

  @Override
  public void close() throws InterruptedException {
    kill();
  }

  /** Shows the end of the log right away; the log is kept for a failed run (its path is in the error). */
  public static void printTail(Path log) {
    System.err.println("VictoriaMetrics log " + log + ", last lines:");
    try (Stream<String> lines = Files.lines(log)) {
      List<String> all = lines.toList();
      all.subList(Math.max(0, all.size() - 30), all.size()).forEach(System.err::println);
    } catch (IOException | java.io.UncheckedIOException e) {
      System.err.println("(unreadable: " + e + ")");
    }
  }

  public static HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(5)).GET().build();
    return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
  }

  public static void expect(HttpResponse<?> response, String what) {
    if (response.statusCode() / 100 != 2) {
      throw new IllegalStateException(what + ": VictoriaMetrics answered " + response.statusCode() + " "
          + response.body());
    }
  }

  public static List<String> run(List<String> command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader reader = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        lines.add(line);
      }
    }
    int exit = process.waitFor();
    if (exit != 0) {
      throw new IllegalStateException(command + " exited with " + exit);
    }
    return lines;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
