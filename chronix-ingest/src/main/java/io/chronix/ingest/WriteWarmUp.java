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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.commons.io.file.PathUtils;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the write path once before the server says it is ready ({@code startup.warmUp}). A fresh
 * JVM runs its first writes in the interpreter while the JIT compiles Jetty's request handling,
 * the protocols' parsers, the log, the buffers, the chunk codec and Solr's and Lucene's indexing;
 * on two cores that compiling takes CPU from the requests, and after a restart the first load is
 * often the largest (agents send what they kept meanwhile). So the start sends {@link
 * WarmUpLoad}'s requests over loopback HTTP to a Jetty of its own that serves the write endpoints
 * over a write path of its own: a {@link Storage} as the server's, over a scratch directory
 * ({@code <data dir>/warmup}) and a scratch core beside the records' one. Closing it writes the
 * points as records; then the core and the directory are dropped. The user's log, buffers and
 * records are not touched: compiled code is all that stays. A warm-up that fails is logged and the
 * server starts without it.
 */
final class WriteWarmUp {

  private static final Logger LOG = LoggerFactory.getLogger(WriteWarmUp.class);
  /** Under the data directory; removed again, and at the next start if a crash left it. */
  static final String DIRECTORY = "warmup";
  /** The scratch buffers hold all of the warm-up's points (some 2 MB) within a small heap's third. */
  private static final long SCRATCH_BUFFER_BYTES = 24L << 20;
  private static final int TIMEOUT_MS = 60_000;

  private WriteWarmUp() {}

  /** What the warm-up sent, how many records its scratch core held at the end, and how long it took. */
  record Outcome(int requests, long records, long nanos) {}

  static Outcome run(ServerConfig config, EmbeddedSolrNode node) throws Exception {
    long start = System.nanoTime();
    String core = scratchCore(config);
    Path directory = config.dataDir().resolve(DIRECTORY);
    deleteRecursively(directory);
    long now = System.currentTimeMillis();
    // 140 requests: what runs once a request is compiled only after some 60 calls, and 72 requests of
    // runs fill chunks as P4's series do; 78,000 points, 436 records
    List<byte[]> lines = WarmUpLoad.bodies(8, 9_000, 1_000, 30, 8, now * 1_000_000L);
    List<byte[]> samples = WarmUpLoad.remoteWriteBodies(120, 30, 2, now);
    SolrClient solr = node.openScratchCore(core); // refuses a core of that name that is not a scratch core
    long records;
    try (solr) {
      ServerConfig scratch = config.with(Map.of("data.dir", directory.toString(), "solr.collection", core,
          "rollup.tiers", "", "rollup.retention", "", "retention.default", "forever", "retention.rules", "",
          "buffer.maxBytes", Long.toString(SCRATCH_BUFFER_BYTES),
          "http.host", "127.0.0.1", "http.port", "0", "http.tls.keystore", ""));
      try (Storage storage = Storage.open(scratch, solr, false, SegmentFiles.DISK)) {
        Server jetty = endpoints(scratch, storage);
        try {
          URI base = URI.create("http://127.0.0.1:" + ((ServerConnector) jetty.getConnectors()[0]).getLocalPort());
          for (byte[] body : lines) {
            post(base.resolve("/write"), body, Map.of("Content-Type", "text/plain; charset=utf-8"));
          }
          for (byte[] body : samples) {
            post(base.resolve("/api/v1/write"), body, Map.of("Content-Type", "application/x-protobuf",
                "Content-Encoding", "snappy", "X-Prometheus-Remote-Write-Version", "0.1.0"));
          }
        } finally {
          jetty.stop();
        }
      } // closing writes every buffered point as records and commits them
      records = solr.query(new SolrQuery("*:*").setRows(0)).getResults().getNumFound();
    } finally {
      node.dropScratchCore(core);
      deleteRecursively(directory);
    }
    return new Outcome(lines.size() + samples.size(), records, System.nanoTime() - start);
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
  static void atStart(ServerConfig config, EmbeddedSolrNode node) {
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
      Outcome outcome = run(config, node);
      LOG.info("warmed the write path with {} requests and {} records of its own in {} ms (startup.warmUp)",
          outcome.requests(), outcome.records(), outcome.nanos() / 1_000_000);
    } catch (Exception e) {
      LOG.warn("the write path's warm-up failed ({}); starting without it", e.toString());
      LOG.debug("the warm-up's failure", e);
    }
  }

  /** The write endpoints over the scratch storage, as the server mounts them, on a port of their own. */
  private static Server endpoints(ServerConfig scratch, Storage storage) throws Exception {
    QueuedThreadPool threads = new QueuedThreadPool(8, 2);
    threads.setName("chronix-warmup");
    Server jetty = new Server(threads);
    jetty.addConnector(HttpConnectors.create(jetty, scratch));
    ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    context.setContextPath("/");
    HttpApi.mountWrites(context, storage.pipeline(), scratch, new RequestGate(), new IngestCounters(),
        ChronixServer::epochNanos);
    jetty.setHandler(ResponseCompression.around(context));
    jetty.start();
    return jetty;
  }

  private static void post(URI target, byte[] body, Map<String, String> headers) throws IOException {
    HttpURLConnection connection = (HttpURLConnection) target.toURL().openConnection();
    connection.setConnectTimeout(TIMEOUT_MS);
    connection.setReadTimeout(TIMEOUT_MS);
    connection.setRequestMethod("POST");
    connection.setDoOutput(true);
    connection.setFixedLengthStreamingMode(body.length);
    headers.forEach(connection::setRequestProperty);
    try (OutputStream out = connection.getOutputStream()) {
      out.write(body);
    }
    int status = connection.getResponseCode();
    InputStream answer = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
    String text = "";
    if (answer != null) {
      try (answer) { // read to its end, so that the connection is kept for the next request
        text = new String(answer.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      }
    }
    if (status != 204) {
      throw new IOException("the warm-up's own request to " + target.getPath() + " was answered " + status + ": " + text);
    }
  }

  private static void deleteRecursively(Path directory) throws IOException {
    if (Files.exists(directory)) {
      PathUtils.deleteDirectory(directory);
    }
  }
}
