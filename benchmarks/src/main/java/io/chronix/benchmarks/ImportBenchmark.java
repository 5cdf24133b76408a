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
 * and reports points, raw CSV bytes, bytes on disk and import rate.
 *
 * <p>Run: {@code benchmarks/run ImportBenchmark [<dir> [key=value...]]}
 */
public final class ImportBenchmark {

  private ImportBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path input = Path.of(args.length > 0 ? args[0] : "../shared/data/p4");
    Path dataDir = Files.createTempDirectory("chronix-import-bench");
    ServerConfig config = ServerConfig.defaults().withEphemeralPorts().with("data.dir", dataDir.toString());
    for (int i = 1; i < args.length; i++) {
      String[] setting = args[i].split("=", 2);
      config = config.with(setting[0], setting[1]);
    }
    List<Path> files = CsvImporter.expand(List.of(input));
    long rawBytes = rawCsvBytes(files);
    try (ChronixServer server = new ChronixServer(config).start()) {
      CsvImporter.Summary summary = new CsvImporter(URI.create(server.baseUrl()), ZoneOffset.UTC,
          new PrintStream(System.err), false).importFiles(files, 2);
      if (!summary.failures().isEmpty()) {
        throw new IllegalStateException("import failed: " + summary.failures());
      }
      long records;
      try (SolrClient solr = new Http2SolrClient.Builder(server.solrUrl()).build()) {
        solr.optimize(config.collection(), true, true, 1);
        records = solr.query(config.collection(), new SolrQuery("*:*").setRows(0)).getResults().getNumFound();
      }
      Path index = dataDir.resolve("solr").resolve(config.collection()).resolve("data").resolve("index");
      long indexBytes = directoryBytes(index);
      Map<String, Long> split = IndexSplit.bytesByFileKind(index);
      System.out.printf("files               %d%n", summary.files());
      System.out.printf("points              %,d%n", summary.points());
      System.out.printf("records             %,d%n", records);
      System.out.printf("raw CSV bytes       %,d (%.1f bytes/point)%n", rawBytes, (double) rawBytes / summary.points());
      System.out.printf("index bytes on disk %,d%n", indexBytes);
      System.out.printf("bytes/point         %.3f%n", (double) indexBytes / summary.points());
      System.out.printf("import time         %.2f s%n", summary.nanos() / 1e9);
      System.out.printf("import points/s     %,.0f%n", summary.pointsPerSecond());
      System.out.printf("index split         %s%n", split);
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

  static long directoryBytes(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
    }
  }

  static void deleteRecursively(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }
}
