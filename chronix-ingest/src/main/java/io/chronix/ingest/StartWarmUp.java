package io.chronix.ingest;

import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.http.HttpApi;
import io.chronix.ingest.http.HttpConnectors;
import io.chronix.ingest.http.RequestGate;
import io.chronix.ingest.http.ResponseCompression;
import io.chronix.ingest.metrics.IngestCounters;
import io.chronix.ingest.solr.EmbeddedSolrNode;
import io.chronix.ingest.wal.SegmentFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import org.apache.commons.io.file.PathUtils;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the write and query paths before the server says it is ready ({@code startup.warmUp}). A
 * fresh JVM runs its first requests in the interpreter while the JIT compiles Jetty's request
 * handling, the protocols' parsers, the log, the buffers, the chunk codec, Solr's and Lucene's
 * indexing and searching, the query plugin and the PromQL engine; on two cores that compiling takes
 * CPU from the requests, and after a restart the first load is often the largest (agents send what
 * they kept meanwhile) while the dashboards ask at once. So the start sends {@link WarmUpLoad}'s
 * requests over loopback HTTP to a Jetty of its own that serves the write endpoints, the
 * Prometheus API and the series queries' route over a write path of its own: a {@link Storage} as
 * the server's, over a scratch directory ({@code <data dir>/warmup}) and a scratch core beside the
 * records' one. The queries come twice, while the points are buffered and once they are records.
 * Closing the storage writes what is left; then the core and the directory are dropped. The user's
 * log, buffers and records are not touched: compiled code is all that stays. A warm-up that fails
 * is logged and the server starts without it.
 */
final class StartWarmUp {

  private static final Logger LOG = LoggerFactory.getLogger(StartWarmUp.class);
  /** Under the data directory; removed again, and at the next start if a crash left it. */
  static final String DIRECTORY = "warmup";
  /** The scratch buffers hold all of the warm-up's points (some 2 MB) within a small heap's third. */
  private static final long SCRATCH_BUFFER_BYTES = 24L << 20;
  private static final int TIMEOUT_MS = 60_000;
  private static final int RUN_SERIES = 8;
  private static final int QUERY_ROUNDS = 40;

  private StartWarmUp() {}

  /**
   * What the warm-up sent (writes and queries), how many records its scratch core held at the end,
   * and how long it took.
   */
  record Outcome(int writes, int queries, long records, long nanos) {}

  /** @param promqlFetchers the server's threads that fetch a PromQL query's series */
  static Outcome run(ServerConfig config, EmbeddedSolrNode node, Executor promqlFetchers) throws Exception {
    long start = System.nanoTime();
    String core = scratchCore(config);
    Path directory = config.dataDir().resolve(DIRECTORY);
    deleteRecursively(directory);
    long now = System.currentTimeMillis();
    // 140 requests: what runs once a request is compiled only after some 60 calls, and 72 requests of
    // runs fill chunks as P4's series do; 78,000 points, 436 records
    List<byte[]> lines = WarmUpLoad.bodies(RUN_SERIES, 9_000, 1_000, 30, 8, now * 1_000_000L);
    List<byte[]> samples = WarmUpLoad.remoteWriteBodies(120, 30, 2, now);
    // twice 40 rounds of ten queries: the buffered points' path, then the records'
    List<String> queries = WarmUpLoad.queries(core, RUN_SERIES, QUERY_ROUNDS, now);
    SolrClient solr = node.openScratchCore(core); // refuses a core of that name that is not a scratch core
    long records;
    try (solr) {
      ServerConfig scratch = config.with(Map.of("data.dir", directory.toString(), "solr.collection", core,
          "rollup.tiers", "", "rollup.retention", "", "retention.default", "forever", "retention.rules", "",
          "buffer.maxBytes", Long.toString(SCRATCH_BUFFER_BYTES),
          "http.host", "127.0.0.1", "http.port", "0", "http.tls.keystore", ""));
      try (Storage storage = Storage.open(scratch, solr, false, SegmentFiles.DISK)) {
        node.offer(core, storage.buffers());
        Server jetty = endpoints(scratch, storage, node, solr, promqlFetchers);
        try {
          URI base = URI.create("http://127.0.0.1:" + ((ServerConnector) jetty.getConnectors()[0]).getLocalPort());
          for (byte[] body : lines) {
            post(base.resolve("/write"), body, Map.of("Content-Type", "text/plain; charset=utf-8"), 204);
          }
          for (byte[] body : samples) {
            post(base.resolve("/api/v1/write"), body, Map.of("Content-Type", "application/x-protobuf",
                "Content-Encoding", "snappy", "X-Prometheus-Remote-Write-Version", "0.1.0"), 204);
          }
          ask(base, queries);
          storage.writeBuffers();
          ask(base, queries);
        } finally {
          jetty.stop();
        }
      } // closing writes every buffered point as records and commits them
      records = solr.query(new SolrQuery("*:*").setRows(0)).getResults().getNumFound();
    } finally {
      node.dropScratchCore(core); // and the buffers offered for it
      deleteRecursively(directory);
    }
    return new Outcome(lines.size() + samples.size(), 2 * queries.size(), records, System.nanoTime() - start);
  }

  /** The scratch core's name: the records' core's with a suffix no other core of the server has. */
  static String scratchCore(ServerConfig config) {
    return config.collection() + "_warmup";
  }

  /**
   * At the start, before the server is ready: the warm-up if {@code startup.warmUp} is on, and in
   * any case no scratch core or directory of an earlier start that crashed during it. A failure is
   * logged, not thrown: the server starts without the warm-up.
   */
  static void atStart(ServerConfig config, EmbeddedSolrNode node, Executor promqlFetchers) {
    if (!config.startupWarmUp()) {
      try {
        node.dropScratchCore(scratchCore(config));
        deleteRecursively(config.dataDir().resolve(DIRECTORY));
      } catch (Exception e) {
        LOG.warn("an earlier warm-up's scratch core or directory could not be removed: {}", e.toString());
      }
      return;
    }
    try {
      Outcome outcome = run(config, node, promqlFetchers);
      LOG.info("warmed the write and query paths with {} writes, {} records and {} queries of its own in {} ms"
          + " (startup.warmUp)", outcome.writes(), outcome.records(), outcome.queries(), outcome.nanos() / 1_000_000);
    } catch (Exception e) {
      LOG.warn("the start's warm-up failed ({}); starting without it", e.toString());
      LOG.debug("the warm-up's failure", e);
    }
  }

  /**
   * The write endpoints and the Prometheus API over the scratch storage and core, as the server
   * mounts them, and the series queries' route, on a port of their own.
   */
  private static Server endpoints(ServerConfig scratch, Storage storage, EmbeddedSolrNode node, SolrClient solr,
      Executor promqlFetchers) throws Exception {
    QueuedThreadPool threads = new QueuedThreadPool(8, 2);
    threads.setName("chronix-warmup");
    Server jetty = new Server(threads);
    jetty.addConnector(HttpConnectors.create(jetty, scratch));
    ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    context.setContextPath("/");
    HttpApi.mountWrites(context, storage.pipeline(), scratch, new RequestGate(), new IngestCounters(),
        ChronixServer::epochNanos);
    HttpApi.mountReads(context, solr, scratch, promqlFetchers, ChronixServer.rangeCache(scratch, storage));
    ContextHandlerCollection contexts = new ContextHandlerCollection();
    contexts.addHandler(ResponseCompression.around(node.queryRoute(scratch.collection())));
    contexts.addHandler(ResponseCompression.around(context));
    jetty.setHandler(contexts);
    jetty.start();
    return jetty;
  }

  /**
   * Asks each query with gzip accepted, as Grafana asks: the Prometheus API's as posted forms
   * (Grafana's datasource posts them), the series queries as GETs; every one must be answered 200.
   */
  private static void ask(URI base, List<String> queries) throws IOException {
    for (String query : queries) {
      if (query.startsWith("/api/v1/")) {
        int mark = query.indexOf('?');
        post(base.resolve(query.substring(0, mark)), query.substring(mark + 1).getBytes(StandardCharsets.UTF_8),
            Map.of("Content-Type", "application/x-www-form-urlencoded", "Accept-Encoding", "gzip"), 200);
      } else {
        HttpURLConnection connection = open(base.resolve(query));
        connection.setRequestProperty("Accept-Encoding", "gzip");
        answer(connection, 200, query);
      }
    }
  }

  private static void post(URI target, byte[] body, Map<String, String> headers, int expected) throws IOException {
    HttpURLConnection connection = open(target);
    connection.setRequestMethod("POST");
    connection.setDoOutput(true);
    connection.setFixedLengthStreamingMode(body.length);
    headers.forEach(connection::setRequestProperty);
    try (OutputStream out = connection.getOutputStream()) {
      out.write(body);
    }
    answer(connection, expected, target.getPath());
  }

  private static HttpURLConnection open(URI target) throws IOException {
    HttpURLConnection connection = (HttpURLConnection) target.toURL().openConnection();
    connection.setConnectTimeout(TIMEOUT_MS);
    connection.setReadTimeout(TIMEOUT_MS);
    return connection;
  }

  /** Reads the answer to its end, so that the connection is kept for the next request. */
  private static void answer(HttpURLConnection connection, int expected, String what) throws IOException {
    int status = connection.getResponseCode();
    InputStream answer = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
    byte[] body = new byte[0];
    if (answer != null) {
      try (answer) {
        body = answer.readAllBytes();
      }
    }
    if (status != expected) {
      throw new IOException("the warm-up's own request " + what + " was answered " + status + ": "
          + new String(body, StandardCharsets.UTF_8));
    }
  }

  private static void deleteRecursively(Path directory) throws IOException {
    if (Files.exists(directory)) {
      PathUtils.deleteDirectory(directory);
    }
  }
}
