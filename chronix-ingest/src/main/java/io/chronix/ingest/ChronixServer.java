package io.chronix.ingest;

import io.chronix.core.chunk.Chunker;
import io.chronix.ingest.buffer.Flusher;
import io.chronix.ingest.buffer.RecordSink;
import io.chronix.ingest.buffer.SeriesBuffers;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.http.FlushServlet;
import io.chronix.ingest.http.PingServlet;
import io.chronix.ingest.http.RequestGate;
import io.chronix.ingest.http.WriteServlet;
import io.chronix.ingest.solr.EmbeddedSolrNode;
import io.chronix.ingest.store.RecordStore;
import java.io.IOException;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Chronix server: one Jetty with the ingest endpoints at {@code /} and, unless an external
 * Solr is configured, an embedded Solr node at {@code /solr}. Stopping it refuses new writes,
 * writes every buffered point as records, commits, and only then stops Solr.
 */
public final class ChronixServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ChronixServer.class);

  private final ServerConfig config;
  private final Server jetty;
  private final EmbeddedSolrNode solrNode;
  private final RequestGate gate = new RequestGate();
  private SolrClient solrClient;
  private RecordStore store;
  private SeriesBuffers buffers;
  private Flusher flusher;
  private boolean stopped;

  public ChronixServer(ServerConfig config) throws IOException {
    this.config = config;
    Files.createDirectories(config.dataDir());
    QueuedThreadPool threads = new QueuedThreadPool(200, 8);
    threads.setName("chronix-http");
    jetty = new Server(threads);
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    ServerConnector connector = new ServerConnector(jetty, new HttpConnectionFactory(http), new HTTP2CServerConnectionFactory(http));
    connector.setHost(config.host());
    connector.setPort(config.port());
    jetty.addConnector(connector);
    solrNode = config.solrUrl().isEmpty() ? new EmbeddedSolrNode(config.dataDir(), config.collection()) : null;
  }

  public ChronixServer start() throws Exception {
    ServletContextHandler ingest = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    ingest.setContextPath("/");
    ContextHandlerCollection contexts = new ContextHandlerCollection();
    if (solrNode != null) {
      contexts.addHandler(solrNode.handler());
    }
    contexts.addHandler(ingest);
    jetty.setHandler(contexts);
    jetty.setStopTimeout(30_000);
    jetty.start();

    solrClient = solrNode != null ? solrNode.client() : new Http2SolrClient.Builder(config.solrUrl()).build();
    store = new RecordStore(solrClient, config.collection());
    buffers = new SeriesBuffers(config.chunkMaxPoints(), config.chunkMaxBytes(), config.chunkMaxAge(),
        new RecordSink(new Chunker(config.chunkMaxPoints(), config.codec()), store));
    flusher = new Flusher(buffers, config.flushInterval());
    ingest.addServlet(new ServletHolder(new WriteServlet(buffers, gate, config.maxRequestBytes())), "/write");
    ingest.addServlet(new ServletHolder(new FlushServlet(buffers, store)), "/flush");
    ingest.addServlet(new ServletHolder(new PingServlet()), "/ping");
    LOG.info("Chronix server listening on http://{}:{} (Solr: {}, data: {})", config.host(), port(),
        solrNode != null ? "embedded at /solr" : config.solrUrl(), config.dataDir().toAbsolutePath());
    return this;
  }

  /** The bound port (useful with http.port=0). */
  public int port() {
    return ((ServerConnector) jetty.getConnectors()[0]).getLocalPort();
  }

  public String baseUrl() {
    return "http://" + config.host() + ":" + port();
  }

  /** Base URL of the Solr that holds the records. */
  public String solrUrl() {
    return solrNode != null ? baseUrl() + "/solr" : config.solrUrl();
  }

  public SeriesBuffers buffers() {
    return buffers;
  }

  public RecordStore store() {
    return store;
  }

  @Override
  public synchronized void close() throws Exception {
    if (stopped) {
      return;
    }
    stopped = true;
    gate.close(30, TimeUnit.SECONDS);
    try {
      if (flusher != null) {
        flusher.close();
      }
      if (buffers != null) {
        long pending = buffers.bufferedPoints();
        buffers.flushAll();
        store.commit();
        LOG.info("wrote {} buffered points on shutdown", pending);
      }
    } finally {
      if (solrClient != null) {
        solrClient.close();
      }
      jetty.stop();
      if (solrNode != null) {
        solrNode.coreContainerOrNull().ifPresent(cores -> {
          if (!cores.isShutDown()) {
            cores.shutdown();
          }
        });
      }
    }
  }
}
