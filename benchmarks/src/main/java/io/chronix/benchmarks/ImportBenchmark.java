package io.chronix.benchmarks;

import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.importer.CsvImporter;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.impl.Http2SolrClient;

/**
 * Imports CSV files (all of shared/data/p4 by default) into a fresh server with default settings,
 * the way a user does ({@code chronix import}), then commits and merges the index to one segment
 * and reports points, raw CSV bytes, everything under the data directory after a clean stop (with
 * its split into index, Solr transaction log, write-ahead log and the rest) and import rate.
 *
 * <p>Run: {@code benchmarks/run ImportBenchmark [<dir> [key=value...]]}
 */
public final class ImportBenchmark {

  private ImportBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path input = Path.of(args.length > 0 ? args[0] : "../shared/data/p4");
    Path dataDir = Files.createTempDirectory("chronix-import-bench");
    ServerConfig config = ServerConfig.defaults().withEphemeralPorts().with("data.dir", dataDir.toString())
        .with("solr.openAdminHandlers", "true"); // the merge to one segment goes through Solr's update handler
    for (int i = 1; i < args.length; i++) {
      String[] setting = args[i].split("=", 2);
      config = config.with(setting[0], setting[1]);
    }
    List<Path> files = CsvImporter.expand(List.of(input));
    long rawBytes = rawCsvBytes(files);
    CsvImporter.Summary summary;
    long records;
    Map<String, Long> indexSplit;
    try (ChronixServer server = new ChronixServer(config).start()) {
      summary = new CsvImporter(URI.create(server.baseUrl()), ZoneOffset.UTC,
          new PrintStream(System.err), false).importFiles(files, 2);
      if (!summary.failures().isEmpty()) {
        throw new IllegalStateException("import failed: " + summary.failures());
      }
      try (SolrClient solr = new Http2SolrClient.Builder(server.solrUrl()).build()) {
        solr.optimize(config.collection(), true, true, 1);
        records = solr.query(config.collection(), new SolrQuery("*:*").setRows(0)).getResults().getNumFound();
      }
    }
    // counted after a clean stop, everything under the data directory
    try {
      StoreFootprint disk = StoreFootprint.of(dataDir, config.collection());
      indexSplit = IndexSplit.bytesByFileKind(dataDir.resolve("solr").resolve(config.collection()).resolve("data")
          .resolve("index"));
      System.out.printf("files               %d%n", summary.files());
      System.out.printf("points              %,d%n", summary.points());
      System.out.printf("records             %,d%n", records);
      System.out.printf("raw CSV bytes       %,d (%.1f bytes/point)%n", rawBytes, (double) rawBytes / summary.points());
      System.out.printf("bytes on disk       %,d (all of the data directory after a clean stop)%n", disk.total());
      System.out.printf("bytes/point         %.3f%n", (double) disk.total() / summary.points());
      System.out.printf("data dir split      %s%n", disk.split());
      System.out.printf("import time         %.2f s%n", summary.nanos() / 1e9);
      System.out.printf("import points/s     %,.0f%n", summary.pointsPerSecond());
      System.out.printf("index split         %s%n", indexSplit);
    } finally {
      deleteRecursively(dataDir);
    }
    System.exit(0); // Solr leaves non-daemon pool threads behind
  }

  static long rawCsvBytes(List<Path> files) throws IOException {
    long total = 0;
    byte[] buffer = new byte[1 << 16];
    for (Path file : files) {
      try (InputStream raw = Files.newInputStream(file);
          InputStream in = file.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw) {
        int read;
        while ((read = in.read(buffer)) > 0) {
          total += read;
        }
      }
    }
    return total;
  }

  public static long directoryBytes(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
    }
  }

  public static void deleteRecursively(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }
}
