package io.chronix.benchmarks;

import io.chronix.core.csv.P4CsvReader;
import io.chronix.core.csv.P4File;
import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.importer.CsvImporter;
import io.chronix.ingest.protocol.influx.LineProtocolWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.impl.Http2SolrClient;

/**
 * Sustained line-protocol ingest and the storage it ends with, each phase on a fresh server with
 * default settings unless said:
 *
 * <ol>
 *   <li>P4 as line protocol: every file's points, pre-rendered into request bodies of 5,000 lines,
 *       sent by 4 client threads; points/s until the last point is acknowledged;
 *   <li>a synthetic stream of 10,000 series (1,000 hosts x 10 metrics), one point per series and
 *       round, 10,000-line requests, 4 client threads;
 *   <li>P4 live: all series interleaved in time order as a collector sends them, buffers cut after
 *       200 ms (many small records), then compaction; bytes per point against a bulk import of the
 *       same files.
 * </ol>
 *
 * <p>Run: {@code benchmarks/run IngestBenchmark [<p4 dir>] [synthetic rounds]}
 */
public final class IngestBenchmark {

  private static final int CLIENTS = 4;
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private IngestBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path input = Path.of(args.length > 0 ? args[0] : "../shared/data/p4");
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 200;
    List<P4File> p4 = new ArrayList<>();
    for (Path file : CsvImporter.expand(List.of(input))) {
      p4.add(new P4CsvReader().read(file));
    }

    List<String> byFile = new ArrayList<>();
    long p4Points = 0;
    for (P4File file : p4) {
      String prefix = LineProtocolWriter.seriesPrefix(file.key());
      StringBuilder body = new StringBuilder();
      for (int i = 0; i < file.points().size(); i++) {
        LineProtocolWriter.appendPoint(prefix, file.points().timestamp(i), file.points().value(i), body);
        if ((i + 1) % 5000 == 0) {
          byFile.add(body.toString());
          body.setLength(0);
        }
      }
      if (body.length() > 0) {
        byFile.add(body.toString());
      }
      p4Points += file.points().size();
    }
    run(ServerConfig.defaults(), byFile, p4Points); // warm-up: JIT, Solr caches; not reported
    Result lineProtocol = run(ServerConfig.defaults(), byFile, p4Points);
    Result noFsync = run(ServerConfig.defaults().with("wal.fsync", "never"), byFile, p4Points);
    System.out.printf("P4 line protocol     %,d points in %.2f s: %,.0f points/s (%d requests, %d clients)%n",
        p4Points, lineProtocol.seconds, p4Points / lineProtocol.seconds, byFile.size(), CLIENTS);
    System.out.printf("  same, wal.fsync=never: %,.0f points/s%n", p4Points / noFsync.seconds);

    List<String> synthetic = new ArrayList<>();
    long t0 = 1_700_000_000_000_000_000L;
    for (int r = 0; r < rounds; r++) {
      StringBuilder body = new StringBuilder(10_000 * 60);
      for (int host = 0; host < 1000; host++) {
        for (int metric = 0; metric < 10; metric++) {
          body.append("node,host=h").append(host).append(",dc=dc").append(host % 4).append(" m").append(metric)
              .append('=').append((r * 7 + host * 13 + metric) % 1000 / 10.0).append(' ')
              .append(t0 + r * 10_000_000_000L + host * 1_000_000L).append('\n');
        }
      }
      synthetic.add(body.toString());
    }
    long syntheticPoints = 10_000L * rounds;
    Result stream = run(ServerConfig.defaults(), synthetic, syntheticPoints);
    System.out.printf("10,000-series stream %,d points in %.2f s: %,.0f points/s (%d rounds)%n",
        syntheticPoints, stream.seconds, syntheticPoints / stream.seconds, rounds);

    List<String> live = interleaved(p4);
    // buffers age out long before they fill: many small records, as a slow live stream leaves them
    Result liveRun = run(ServerConfig.defaults().with("chunk.maxAge", "200ms").with("flush.interval", "100ms"), live, p4Points);
    Result bulk = run(ServerConfig.defaults(), byFile, p4Points);
    System.out.printf("P4 live, time order  %,.0f points/s; %d records before compaction, %d after%n",
        p4Points / liveRun.seconds, liveRun.recordsBefore, liveRun.recordsAfter);
    System.out.printf("bytes/point          live+compaction %.3f, bulk %.3f, ratio %.3f (target within 10%%)%n",
        (double) liveRun.indexBytes / p4Points, (double) bulk.indexBytes / p4Points,
        (double) liveRun.indexBytes / bulk.indexBytes);
    System.exit(0);
  }

  /** P4 points of all series merged by timestamp, 5,000 lines a request: what a live collector sends. */
  private static List<String> interleaved(List<P4File> files) {
    List<long[]> order = new ArrayList<>();
    for (int f = 0; f < files.size(); f++) {
      for (int i = 0; i < files.get(f).points().size(); i++) {
        order.add(new long[] {files.get(f).points().timestamp(i), f, i});
      }
    }
    order.sort(Comparator.comparingLong((long[] entry) -> entry[0]));
    String[] prefixes = files.stream().map(file -> LineProtocolWriter.seriesPrefix(file.key())).toArray(String[]::new);
    List<String> bodies = new ArrayList<>();
    StringBuilder body = new StringBuilder();
    int lines = 0;
    for (long[] entry : order) {
      P4File file = files.get((int) entry[1]);
      LineProtocolWriter.appendPoint(prefixes[(int) entry[1]], entry[0], file.points().value((int) entry[2]), body);
      if (++lines % 5000 == 0) {
        bodies.add(body.toString());
        body.setLength(0);
      }
    }
    if (body.length() > 0) {
      bodies.add(body.toString());
    }
    return bodies;
  }

  private record Result(double seconds, long indexBytes, long recordsBefore, long recordsAfter) {}

  private static Result run(ServerConfig base, List<String> bodies, long points) throws Exception {
    Path dataDir = Files.createTempDirectory("chronix-ingest-bench");
    ServerConfig config = base.withEphemeralPorts().with("data.dir", dataDir.toString()).with("compaction.interval", "0")
        .with("solr.openAdminHandlers", "true"); // the merge to one segment goes through Solr's update handler
    try (ChronixServer server = new ChronixServer(config).start()) {
      URI write = URI.create(server.baseUrl() + "/write");
      AtomicInteger next = new AtomicInteger();
      ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
      long start = System.nanoTime();
      List<Future<?>> done = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        done.add(clients.submit(() -> {
          int index;
          while ((index = next.getAndIncrement()) < bodies.size()) {
            send(write, bodies.get(index));
          }
          return null;
        }));
      }
      for (Future<?> future : done) {
        future.get();
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      clients.shutdown();
      post(server.baseUrl() + "/flush");
      long before;
      long after;
      try (SolrClient solr = new Http2SolrClient.Builder(server.solrUrl()).build()) {
        before = count(solr);
        post(server.baseUrl() + "/compact");
        after = count(solr);
        solr.optimize("chronix", true, true, 1);
      }
      long indexBytes = ImportBenchmark.directoryBytes(dataDir.resolve("solr/chronix/data/index"));
      return new Result(seconds, indexBytes, before, after);
    } finally {
      ImportBenchmark.deleteRecursively(dataDir);
    }
  }

  private static long count(SolrClient solr) throws Exception {
    return solr.query("chronix", new org.apache.solr.client.solrj.SolrQuery("*:*").setRows(0)).getResults().getNumFound();
  }

  private static void send(URI uri, String body) throws Exception {
    while (true) {
      HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
          HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() == 204) {
        return;
      }
      if (response.statusCode() == 503) {
        Thread.sleep(100); // back-pressure: the budget is used up, try again shortly
        continue;
      }
      throw new IllegalStateException("write answered " + response.statusCode() + ": " + response.body());
    }
  }

  private static void post(String url) throws Exception {
    HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() / 100 != 2) {
      throw new IllegalStateException(url + " answered " + response.statusCode() + ": " + response.body());
    }
  }
}
