package io.chronix.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronix.benchmarks.peers.DirectorySettle;
import io.chronix.core.csv.P4CsvReader;
import io.chronix.core.csv.P4File;
import io.chronix.core.series.Points;
import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.importer.CsvImporter;
import io.chronix.ingest.protocol.influx.LineProtocolWriter;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.impl.Http2SolrClient;

/**
 * Bytes per value on disk, ours against VictoriaMetrics, on the same files in one run.
 *
 * <p>VictoriaMetrics (Debian package, installed by {@code benchmarks/peers/victoria-metrics.sh})
 * runs as a child process on 127.0.0.1 with a fresh data directory; it receives every point as
 * InfluxDB line protocol, is flushed, force-merged and left until its directory stops changing;
 * its row count must equal the point count; after a clean stop everything under its
 * {@code -storageDataPath} is counted (caches and metadata included: it is what the process keeps
 * on disk). A second VictoriaMetrics process then opens the measured directory and exports every
 * sample, which must match the files' timestamps; values that differ in any bit are counted.
 * Our side then runs exactly as {@link ImportBenchmark}: fresh server, import, merge to one
 * segment, clean stop, then everything under the data directory (index, Solr's transaction log if
 * any, our write-ahead log, configuration), with the split.
 *
 * <p>Run: {@code benchmarks/run StorageBenchmark [<dir>]}
 */
public final class StorageBenchmark {

  private static final int LINES_PER_REQUEST = 50_000;
  /** The directory must not change for this long before it counts as settled. */
  private static final Duration SETTLED_AFTER = Duration.ofSeconds(6);
  private static final Duration SETTLE_LIMIT = Duration.ofMinutes(5);
  private static final ObjectMapper JSON = new ObjectMapper();

  private StorageBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path input = Path.of(args.length > 0 ? args[0] : "../shared/data/p4");
    List<Path> files = CsvImporter.expand(List.of(input));
    List<P4File> series = new ArrayList<>();
    long points = 0;
    for (Path file : files) {
      P4File read = new P4CsvReader(ZoneOffset.UTC).read(file);
      series.add(read);
      points += read.points().size();
    }

    String binary = VictoriaMetricsProcess.install();
    PeerResult vm = measureVictoriaMetrics(binary, series, points);

    Path dataDir = Files.createTempDirectory("chronix-storage-bench");
    ServerConfig config = ServerConfig.defaults().withEphemeralPorts().with("data.dir", dataDir.toString())
        .with("solr.openAdminHandlers", "true"); // the merge to one segment goes through Solr's update handler
    CsvImporter.Summary summary;
    long records;
    try (ChronixServer server = new ChronixServer(config).start()) {
      summary = new CsvImporter(URI.create(server.baseUrl()), ZoneOffset.UTC,
          new PrintStream(System.err), false).importFiles(files, 2);
      if (!summary.failures().isEmpty()) {
        throw new IllegalStateException("import failed: " + summary.failures());
      }
      if (summary.points() != points) {
        throw new IllegalStateException("imported " + summary.points() + " points, the files hold " + points);
      }
      try (SolrClient solr = new Http2SolrClient.Builder(server.solrUrl()).build()) {
        solr.optimize(config.collection(), true, true, 1);
        records = solr.query(config.collection(), new SolrQuery("*:*").setRows(0)).getResults().getNumFound();
      }
    }
    try {
      // after a clean stop, everything under the data directory, as for VictoriaMetrics
      StoreFootprint disk = StoreFootprint.of(dataDir, config.collection());
      long ourBytes = disk.total();
      Map<String, Long> split = IndexSplit.bytesByFileKind(dataDir.resolve("solr").resolve(config.collection())
          .resolve("data").resolve("index"));

      System.out.printf("files                  %d (%d series)%n", files.size(), vm.seriesCount);
      System.out.printf("points                 %,d%n", points);
      System.out.printf("VictoriaMetrics        %s (%s)%n", vm.version, binary);
      System.out.printf("VM load time           %.2f s (%,.0f points/s, until /write acknowledged)%n",
          vm.loadNanos / 1e9, points * 1e9 / vm.loadNanos);
      System.out.printf("VM samples read back   %,d in %d series, every timestamp as sent%n", vm.samples,
          vm.seriesCount);
      System.out.printf("VM values changed      %,d of %,d%s%n", vm.changedValues, points,
          vm.changedValues == 0 ? " (lossless)" : String.format(" (largest relative error %.3g)", vm.maxRelativeError));
      System.out.printf("VM bytes on disk       %,d (all of -storageDataPath after a clean stop)%n", vm.bytes);
      System.out.printf("VM bytes/point         %.3f%n", (double) vm.bytes / points);
      System.out.printf("VM split               %s%n", vm.split);
      System.out.printf("our records            %,d%n", records);
      System.out.printf("our bytes on disk      %,d (all of the data directory after a clean stop)%n", ourBytes);
      System.out.printf("our bytes/point        %.3f%n", (double) ourBytes / points);
      System.out.printf("our data dir split     %s%n", disk.split());
      System.out.printf("our import time        %.2f s (%,.0f points/s)%n", summary.nanos() / 1e9,
          summary.pointsPerSecond());
      System.out.printf("ratio ours/VM          %.3f (goal: at most 0.8)%n", (double) ourBytes / vm.bytes);
      System.out.printf("our index split        %s%n", split);
    } finally {
      ImportBenchmark.deleteRecursively(dataDir);
    }
    System.exit(0); // Solr leaves non-daemon pool threads behind
  }

  private record PeerResult(String version, long bytes, Map<String, Long> split, long samples, int seriesCount,
      long changedValues, double maxRelativeError, long loadNanos) {}

  private static PeerResult measureVictoriaMetrics(String binary, List<P4File> series, long points)
      throws Exception {
    String version = VictoriaMetricsProcess.version(binary);
    Path storage = Files.createTempDirectory("vm-storage-bench");
    // the log lives outside the storage path so that it is not counted as VictoriaMetrics' data
    Path log = Files.createTempFile("vm-storage-bench", ".log");
    VictoriaMetricsProcess vm = null;
    try {
      vm = VictoriaMetricsProcess.start(binary, storage, log);

      long started = System.nanoTime();
      StringBuilder body = new StringBuilder(LINES_PER_REQUEST * 200);
      int lines = 0;
      for (P4File file : series) {
        String prefix = LineProtocolWriter.seriesPrefix(file.key());
        Points p = file.points();
        for (int i = 0; i < p.size(); i++) {
          LineProtocolWriter.appendPoint(prefix, p.timestamp(i), p.value(i), body);
          if (++lines == LINES_PER_REQUEST) {
            write(vm.base(), body);
            body.setLength(0);
            lines = 0;
          }
        }
      }
      if (lines > 0) {
        write(vm.base(), body);
      }
      long loadNanos = System.nanoTime() - started;

      VictoriaMetricsProcess.expect(VictoriaMetricsProcess.get(vm.base().resolve("/internal/force_flush")), "force_flush");
      // the merge runs in the background after the request returns; settle() waits for it
      VictoriaMetricsProcess.expect(VictoriaMetricsProcess.get(vm.base().resolve("/internal/force_merge")), "force_merge");
      DirectorySettle.await(storage, SETTLED_AFTER, SETTLE_LIMIT);
      // Counted from VictoriaMetrics' own gauges: reading the samples back would fill its
      // metricID-to-name caches, which it writes under cache/ on stop and which would then count.
      checkRowCount(vm.base(), points, log);

      vm.stop();
      long bytes = ImportBenchmark.directoryBytes(storage);
      Map<String, Long> split = splitByTopLevel(storage);

      // A second process on the measured directory proves that what was counted holds every sample
      vm = VictoriaMetricsProcess.start(binary, storage, log);
      Verification check = verify(vm.base(), series, points, log);
      vm.stop();
      Files.deleteIfExists(log);
      return new PeerResult(version, bytes, split, check.samples, check.series, check.changedValues,
          check.maxRelativeError, loadNanos);
    } catch (Exception | Error e) {
      VictoriaMetricsProcess.printTail(log);
      throw e;
    } finally {
      if (vm != null) {
        vm.kill();
      }
      ImportBenchmark.deleteRecursively(storage);
    }
  }

  private static void write(URI base, StringBuilder body) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(base.resolve("/write?precision=ns"))
        .timeout(Duration.ofMinutes(5))
        .header("Content-Type", "text/plain; charset=utf-8")
        .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8))
        .build();
    VictoriaMetricsProcess.expect(VictoriaMetricsProcess.HTTP.send(request, HttpResponse.BodyHandlers.ofString()), "write");
  }

  /** Rows in VictoriaMetrics' parts (it keeps repeated samples unless told to deduplicate). */
  private static void checkRowCount(URI base, long points, Path log) throws IOException, InterruptedException {
    HttpResponse<String> metrics = VictoriaMetricsProcess.get(base.resolve("/metrics"));
    VictoriaMetricsProcess.expect(metrics, "metrics");
    long rows = 0;
    for (String line : metrics.body().lines().toList()) {
      if (line.startsWith("vm_rows{type=\"storage/")) {
        rows += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    if (rows != points) {
      throw new IllegalStateException(String.format(
          "VictoriaMetrics stores %,d rows, the files hold %,d points (ignored rows: %s; log: %s)",
          rows, points, ignoredRows(base), log));
    }
  }

  private record Verification(long samples, int series, long changedValues, double maxRelativeError) {}

  /**
   * Exports every sample and compares it with the files: the count and every timestamp must match
   * (anything else fails the run), values are compared bit for bit and differences are counted,
   * since VictoriaMetrics stores values as decimals and may round long ones.
   */
  private static Verification verify(URI base, List<P4File> series, long points, Path log) throws Exception {
    // P4 splits some series over several files (one per collector run): VictoriaMetrics joins them
    Map<String, Points> expected = new HashMap<>();
    for (P4File file : series) {
      expected.computeIfAbsent(identity(file.key().name(), file.key().attributes()), k -> new Points())
          .addAll(file.points());
    }
    long distinct = 0;
    for (Points p : expected.values()) {
      p.sortAndDeduplicate();
      distinct += p.size();
    }
    if (distinct != points) {
      // VictoriaMetrics would keep repeated timestamps (no -dedup flag) and the comparison below
      // assumes there are none
      throw new IllegalStateException("the files repeat " + (points - distinct) + " timestamps within a series");
    }

    Map<String, Points> exported = new HashMap<>();
    String match = URLEncoder.encode("{__name__=~\".+\"}", StandardCharsets.UTF_8);
    HttpRequest request = HttpRequest.newBuilder(base.resolve("/api/v1/export?match[]=" + match))
        .timeout(Duration.ofMinutes(5)).GET().build();
    HttpResponse<InputStream> response = VictoriaMetricsProcess.HTTP.send(request, HttpResponse.BodyHandlers.ofInputStream());
    try (BufferedReader reader = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
      if (response.statusCode() != 200) {
        throw new IllegalStateException("export: VictoriaMetrics answered " + response.statusCode());
      }
      String line;
      while ((line = reader.readLine()) != null) {
        if (line.isBlank()) {
          continue;
        }
        JsonNode row = JSON.readTree(line);
        Map<String, String> labels = new TreeMap<>();
        row.get("metric").fields().forEachRemaining(label -> labels.put(label.getKey(), label.getValue().asText()));
        // VictoriaMetrics names a line protocol series <measurement>_<field>, and our field is "value"
        String metric = labels.remove("__name__");
        if (metric == null || !metric.endsWith("_value")) {
          throw new IllegalStateException("unexpected series in VictoriaMetrics: " + row.get("metric"));
        }
        Points into = exported.computeIfAbsent(identity(metric.substring(0, metric.length() - 6), labels),
            k -> new Points());
        JsonNode timestamps = row.get("timestamps");
        JsonNode values = row.get("values");
        for (int i = 0; i < timestamps.size(); i++) {
          into.add(timestamps.get(i).asLong() * 1_000_000L, values.get(i).asDouble());
        }
      }
    }

    long samples = exported.values().stream().mapToLong(Points::size).sum();
    if (samples != points || exported.size() != expected.size()) {
      throw new IllegalStateException(String.format(
          "VictoriaMetrics holds %,d samples in %d series, the files %,d points in %d series (ignored rows: %s; log: %s)",
          samples, exported.size(), points, expected.size(), ignoredRows(base), log));
    }
    long changed = 0;
    double maxRelativeError = 0;
    for (Map.Entry<String, Points> entry : exported.entrySet()) {
      Points want = expected.get(entry.getKey());
      Points got = entry.getValue();
      got.sortAndDeduplicate();
      if (want == null || want.size() != got.size()) {
        throw new IllegalStateException("VictoriaMetrics' series " + entry.getKey().replace('\0', ' ')
            + " does not match a file's series");
      }
      for (int i = 0; i < want.size(); i++) {
        if (want.timestamp(i) != got.timestamp(i)) {
          throw new IllegalStateException("series " + entry.getKey().replace('\0', ' ') + ": timestamp "
              + want.timestamp(i) + " came back as " + got.timestamp(i));
        }
        if (!want.sameValue(i, got, i)) {
          changed++;
          double error = Math.abs(got.value(i) - want.value(i)) / Math.max(Math.abs(want.value(i)), Double.MIN_NORMAL);
          maxRelativeError = Math.max(maxRelativeError, error);
        }
      }
    }
    return new Verification(samples, exported.size(), changed, maxRelativeError);
  }

  private static String identity(String name, Map<String, String> attributes) {
    StringBuilder id = new StringBuilder(name);
    new TreeMap<>(attributes).forEach((key, value) -> id.append('\0').append(key).append('=').append(value));
    return id.toString();
  }

  private static String ignoredRows(URI base) {
    try {
      return VictoriaMetricsProcess.get(base.resolve("/metrics")).body().lines()
          .filter(l -> l.startsWith("vm_rows_ignored_total") || l.startsWith("vm_rows_invalid_total"))
          .toList().toString();
    } catch (IOException | InterruptedException e) {
      return "unavailable (" + e + ")";
    }
  }

  /** Bytes under each top-level entry of the storage path (data, indexdb, cache, ...). */
  private static Map<String, Long> splitByTopLevel(Path storage) throws IOException {
    Map<String, Long> split = new TreeMap<>();
    try (Stream<Path> entries = Files.list(storage)) {
      for (Path entry : entries.toList()) {
        String name = Files.isDirectory(entry) ? entry.getFileName().toString() : "other";
        split.merge(name, ImportBenchmark.directoryBytes(entry), Long::sum);
      }
    }
    return split;
  }
}
