package io.chronix.ingest;

import io.chronix.core.chunk.Chunker;
import io.chronix.core.live.LiveSeries;
import io.chronix.core.live.LiveSeriesRegistry;
import io.chronix.ingest.buffer.Flusher;
import io.chronix.ingest.buffer.RecordSink;
import io.chronix.ingest.buffer.SeriesBuffers;
import io.chronix.ingest.compaction.Compactor;
import io.chronix.ingest.semantic.SemanticRules;
import io.chronix.ingest.protocol.collectd.CollectdServlet;
import io.chronix.ingest.protocol.graphite.GraphiteTcpListener;
import io.chronix.ingest.protocol.graphite.GraphiteUdpListener;
import io.chronix.ingest.protocol.opentsdb.OpenTsdbServlet;
import io.chronix.ingest.protocol.opentsdb.OpenTsdbTelnetListener;
import io.chronix.ingest.protocol.influx.InfluxQueryServlet;
import io.chronix.ingest.protocol.prometheus.RemoteReadServlet;
import io.chronix.ingest.protocol.prometheus.RemoteWriteServlet;
import io.chronix.analysis.promql.engine.Engine;
import io.chronix.ingest.promql.PrometheusApiServlet;
import io.chronix.ingest.promql.SeriesCatalog;
import io.chronix.ingest.promql.SolrSeriesSource;
import java.time.Instant;
import java.util.EnumSet;
import javax.servlet.DispatcherType;
import org.eclipse.jetty.servlet.FilterHolder;
import org.eclipse.jetty.servlets.QoSFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import io.chronix.ingest.http.CompactServlet;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.http.FlushServlet;
import io.chronix.ingest.http.PingServlet;
import io.chronix.ingest.http.RequestGate;
import io.chronix.ingest.http.WriteServlet;
import io.chronix.ingest.pipeline.IngestPipeline;
import io.chronix.ingest.pipeline.ReplayFilter;
import io.chronix.ingest.solr.EmbeddedSolrNode;
import io.chronix.ingest.store.RecordStore;
import io.chronix.ingest.wal.WriteAheadLog;
import java.io.IOException;
import java.nio.file.Files;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
  private ExecutorService chunkWriters;
  private ExecutorService promqlFetchers;
  private WriteAheadLog wal;
  private IngestPipeline pipeline;
  private Flusher flusher;
  private Compactor compactor;
  private final List<AutoCloseable> listeners = new ArrayList<>();
  private GraphiteTcpListener graphiteTcp;
  private GraphiteUdpListener graphiteUdp;
  private OpenTsdbTelnetListener openTsdbTelnet;
  private java.util.concurrent.ScheduledExecutorService compaction;
  /** What the embedded node's series queries add to the stored records; null with an external Solr. */
  private LiveSeries liveSeries;
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
    chunkWriters = Executors.newFixedThreadPool(2, runnable -> {
      Thread thread = new Thread(runnable, "chronix-chunk-writer");
      thread.setDaemon(true);
      return thread;
    });
    buffers = new SeriesBuffers(config.chunkMaxPoints(), config.chunkMaxBytes(), config.chunkMaxAge(),
        new RecordSink(new Chunker(config.chunkMaxPoints(), config.codec()),
            SemanticRules.parse(config.semanticRules(), config.chunkMaxPoints(), config.codec().compression()), store),
        chunkWriters);
    if (solrNode != null) {
      // else the embedded node's queries would miss a chunk from its cut until Solr shows it
      buffers.trackOutgoing(RecordStore.SEARCH_LAG);
    }
    wal = new WriteAheadLog(config.dataDir().resolve("wal"), config.walSegmentBytes(), config.walFsync(),
        config.walFsyncInterval().toMillis());
    replay();
    // the flusher needs the pipeline and relieves it: the lambda reads the field when it runs
    pipeline = new IngestPipeline(wal, buffers, store, config.bufferMaxBytes() / 16, () -> flusher.relieve());
    flusher = new Flusher(buffers, pipeline, config.flushInterval());
    WriteServlet lineProtocol = new WriteServlet(pipeline, gate, config.maxRequestBytes());
    ingest.addServlet(new ServletHolder(lineProtocol), "/write");
    ingest.addServlet(new ServletHolder(lineProtocol), "/api/v2/write");
    // bodies being parsed are outside the buffers' budget: bound how many there are at once;
    // the rest wait (which slows their senders) and get 503 after http.writeQueueTimeout
    FilterHolder writeLimit = new FilterHolder(QoSFilter.class);
    writeLimit.setInitParameter("maxRequests", String.valueOf(config.maxConcurrentWrites()));
    writeLimit.setInitParameter("waitMs", "50");
    writeLimit.setInitParameter("suspendMs", String.valueOf(config.writeQueueTimeout().toMillis()));
    for (String path : List.of("/write", "/api/v2/write", "/api/v1/write", "/api/put", "/collectd")) {
      ingest.addFilter(writeLimit, path, EnumSet.of(DispatcherType.REQUEST));
    }
    LongSupplier clock = ChronixServer::epochNanos;
    ingest.addServlet(new ServletHolder(new RemoteWriteServlet(pipeline, gate, config.maxRequestBytes())), "/api/v1/write");
    ingest.addServlet(new ServletHolder(new OpenTsdbServlet(pipeline, gate, config.maxRequestBytes(), clock)), "/api/put");
    ingest.addServlet(new ServletHolder(new CollectdServlet(pipeline, gate, config.maxRequestBytes(), clock)), "/collectd");
    startListeners(clock);
    ingest.addServlet(new ServletHolder(new FlushServlet(buffers, store)), "/flush");
    compactor = new Compactor(solrClient, config.collection(), config.chunkMaxPoints(), config.codec());
    ingest.addServlet(new ServletHolder(new CompactServlet(compactor)), "/compact");
    scheduleCompaction();
    ingest.addServlet(new ServletHolder(new PingServlet()), "/ping");
    ingest.addServlet(new ServletHolder(new InfluxQueryServlet(config.collection())), "/query");
    startPromQl(ingest);
    if (solrNode != null) {
      // the node shares this JVM, so its series queries can add what is not yet searchable;
      // registered last so that a failed start leaves no entry behind
      liveSeries = buffers::snapshot;
      LiveSeriesRegistry.register(config.collection(), liveSeries);
    }
    LOG.info("Chronix server listening on http://{}:{} (Solr: {}, data: {})", config.host(), port(),
        solrNode != null ? "embedded at /solr" : config.solrUrl(), config.dataDir().toAbsolutePath());
    return this;
  }

  /**
   * Puts what the log holds back into the buffers, drops what the store already has (the crash
   * came after it was written but before its segment was deleted) and writes the rest.
   */
  private void replay() throws IOException {
    buffers.pauseCutting();
    long batches = wal.replay((batch, segment) -> IngestPipeline.replayInto(batch, buffers, segment));
    if (batches > 0) {
      store.commit(); // what Solr recovered from its own log becomes searchable
      long replayed = buffers.bufferedPoints();
      long dropped = new ReplayFilter(solrClient, config.collection()).apply(buffers);
      LOG.info("replayed {} logged batches: {} points, {} of them already stored", batches, replayed, dropped);
    }
    buffers.resumeCutting();
    if (batches > 0) {
      buffers.flushAll();
      buffers.commit(store::commit);
    }
  }

  /** The Prometheus query API over the store (docs/promql.md); selectors are fetched in parallel. */
  private void startPromQl(ServletContextHandler ingest) {
    promqlFetchers = Executors.newFixedThreadPool(4, runnable -> {
      Thread thread = new Thread(runnable, "chronix-promql-fetch");
      thread.setDaemon(true);
      return thread;
    });
    SolrSeriesSource source = new SolrSeriesSource(solrClient, config.collection(), config.promqlMaxSeries());
    Engine engine = new Engine(source, promqlFetchers);
    ingest.addServlet(new ServletHolder(new RemoteReadServlet(source, config.maxRequestBytes(),
        config.promqlLimits().maxSamples())), "/api/v1/read");
    ingest.addServlet(new ServletHolder(new PrometheusApiServlet(engine,
        new SeriesCatalog(solrClient, config.collection()), config.promqlLimits(), System::currentTimeMillis)),
        "/api/v1/*");
  }

  private void startListeners(LongSupplier clock) throws IOException {
    int port = config.listenerPort("graphite.tcpPort");
    if (port >= 0) {
      graphiteTcp = new GraphiteTcpListener(pipeline, config.host(), port, clock);
      listeners.add(graphiteTcp);
    }
    port = config.listenerPort("graphite.udpPort");
    if (port >= 0) {
      graphiteUdp = new GraphiteUdpListener(pipeline, config.host(), port, clock);
      listeners.add(graphiteUdp);
    }
    port = config.listenerPort("opentsdb.telnetPort");
    if (port >= 0) {
      openTsdbTelnet = new OpenTsdbTelnetListener(pipeline, config.host(), port);
      listeners.add(openTsdbTelnet);
    }
  }

  private static long epochNanos() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }

  /** Bound port of the Graphite TCP listener, -1 when off. */
  public int graphiteTcpPort() {
    return graphiteTcp == null ? -1 : graphiteTcp.port();
  }

  public int graphiteUdpPort() {
    return graphiteUdp == null ? -1 : graphiteUdp.port();
  }

  public int openTsdbTelnetPort() {
    return openTsdbTelnet == null ? -1 : openTsdbTelnet.port();
  }

  private void scheduleCompaction() {
    long millis = config.compactionInterval().toMillis();
    if (millis <= 0) {
      return;
    }
    compaction = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "chronix-compaction");
      thread.setDaemon(true);
      return thread;
    });
    compaction.scheduleWithFixedDelay(() -> {
      synchronized (compactor) {
        try {
          Compactor.Result result = compactor.compact();
          if (result.series() > 0) {
            LOG.info("compaction merged {} records of {} series into {}", result.recordsRead(), result.series(),
                result.recordsWritten());
          }
        } catch (IOException | RuntimeException e) {
          LOG.warn("compaction failed, will retry: {}", e.getMessage());
        }
      }
    }, millis, millis, TimeUnit.MILLISECONDS);
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

  @Override
  public synchronized void close() throws Exception {
    if (stopped) {
      return;
    }
    stopped = true;
    gate.close(30, TimeUnit.SECONDS);
    for (AutoCloseable listener : listeners) {
      try {
        listener.close(); // socket writers finish their batch; nothing new arrives after this
      } catch (Exception e) {
        LOG.warn("closing a listener failed: {}", e.getMessage());
      }
    }
    if (compaction != null) {
      compaction.shutdownNow();
    }
    if (promqlFetchers != null) {
      promqlFetchers.shutdownNow();
    }
    try {
      if (flusher != null) {
        flusher.close();
      }
      if (chunkWriters != null) {
        chunkWriters.shutdown();
        chunkWriters.awaitTermination(60, TimeUnit.SECONDS);
      }
      if (buffers != null) {
        long pending = buffers.bufferedPoints();
        buffers.flushAll();
        store.commit();
        pipeline.checkpoint();
        LOG.info("wrote {} buffered points on shutdown", pending);
      }
    } finally {
      if (wal != null) {
        wal.close();
      }
      if (liveSeries != null) {
        LiveSeriesRegistry.unregister(config.collection(), liveSeries);
      }
      if (solrClient != null) {
        solrClient.close();
      }
      jetty.stop();
      if (solrNode != null) {
        solrNode.startedContainer().ifPresent(cores -> {
          if (!cores.isShutDown()) {
            cores.shutdown();
          }
        });
      }
    }
  }
}
