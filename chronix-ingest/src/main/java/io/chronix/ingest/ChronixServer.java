package io.chronix.ingest;

import io.chronix.ingest.buffer.SeriesBuffers;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.http.HttpApi;
import io.chronix.ingest.http.ResponseCompression;
import io.chronix.ingest.lifecycle.Backups;
import io.chronix.ingest.lifecycle.RetentionFilter;
import io.chronix.ingest.metrics.IngestCounters;
import io.chronix.ingest.metrics.Observability;
import io.chronix.ingest.metrics.RecentErrors;
import io.chronix.ingest.metrics.RequestDurations;
import io.chronix.ingest.metrics.ServerMetrics;
import io.chronix.ingest.http.HttpConnectors;
import io.chronix.ingest.http.PingServlet;
import io.chronix.ingest.http.Readiness;
import io.chronix.ingest.http.RequestGate;
import io.chronix.ingest.http.RequestTimer;
import io.chronix.ingest.http.UnreadBodyDrain;
import io.chronix.ingest.protocol.SocketListeners;
import io.chronix.ingest.protocol.prometheus.SnappyLibraryDirectory;
import io.chronix.analysis.promql.engine.PointChanges;
import io.chronix.analysis.promql.engine.RangeCache;
import io.chronix.ingest.security.AccessHandler;
import io.chronix.ingest.security.AccessPolicy;
import io.chronix.ingest.cluster.IngestCluster;
import io.chronix.ingest.pipeline.BatchWriter;
import io.chronix.ingest.solr.SolrUpdateWatch;
import io.chronix.ingest.solr.CloudCollection;
import io.chronix.ingest.solr.CloudQueryServlet;
import io.chronix.ingest.solr.EmbeddedSolrNode;
import io.chronix.ingest.solr.SolrClientErrors;
import io.chronix.ingest.wal.SegmentFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Instant;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Chronix server's lifecycle: one Jetty with the ingest endpoints at {@code /} and, unless an
 * external Solr is configured, an embedded Solr node at {@code /solr}, every path behind the
 * {@link AccessHandler}. What is wired to what lives in {@link Storage} (the write side),
 * {@link HttpApi} (the endpoints) and {@link SocketListeners}.
 *
 * <p>Start: Solr, then the storage (which replays the log), the endpoints and the listeners; the
 * server is ready ({@code /ping} answers 204) only when all of them accept. Stop: refuse new
 * writes, close the listeners, write every buffered point and commit, and only then stop Solr.
 */
public final class ChronixServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ChronixServer.class);

  private final ServerConfig config;
  private final Server jetty;
  private final ServerConfig.SolrMode solrMode;
  private final EmbeddedSolrNode solrNode;
  private final ServletContextHandler ingest = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
  private final RequestGate gate = new RequestGate();
  private final Readiness readiness = new Readiness();
  private final ExecutorService promqlFetchers = Executors.newFixedThreadPool(4, runnable -> {
    Thread thread = new Thread(runnable, "chronix-promql-fetch");
    thread.setDaemon(true);
    return thread;
  });
  private final SegmentFiles walFiles;
  private SolrClient solrClient;
  private volatile Storage storage;
  private IngestCluster cluster;
  /** The last warnings and errors, from the start on, for the console's status page. */
  private final RecentErrors recentErrors = new RecentErrors();
  private final RequestDurations durations = new RequestDurations();
  private final SolrClientErrors solrClientErrors = new SolrClientErrors();
  private SocketListeners listeners;
  private boolean stopped;

  /** @throws IllegalArgumentException when the settings would expose the server without protection */
  public ChronixServer(ServerConfig config) throws IOException {
    this(config, SegmentFiles.DISK);
  }

  /** With the write-ahead log's file operations given: fault-injection tests pass a failing disk. */
  public ChronixServer(ServerConfig config, SegmentFiles walFiles) throws IOException {
    this.config = config;
    this.walFiles = walFiles;
    requireProtection(config);
    Files.createDirectories(config.dataDir());
    SnappyLibraryDirectory.under(config.dataDir()); // before the remote-write endpoint loads it
    QueuedThreadPool threads = new QueuedThreadPool(200, 8);
    threads.setName("chronix-http");
    jetty = new Server(threads);
    jetty.addConnector(HttpConnectors.create(jetty, config));
    this.solrMode = config.solrMode();
    if (solrMode == ServerConfig.SolrMode.CLOUD && config.authEnabled() && config.clusterToken().isEmpty()) {
      throw new IllegalArgumentException("auth is on and the records live in SolrCloud: set cluster.token to an API"
          + " token with the write role (the same on every ingest node), which the nodes send with the points they"
          + " forward to a series' owner (docs/scaling.md)");
    }
    solrNode = solrMode == ServerConfig.SolrMode.EMBEDDED
        ? new EmbeddedSolrNode(config.dataDir(), config.collection(), !config.rollupTiers().isEmpty()) : null;
    ContextHandlerCollection contexts = new ContextHandlerCollection();
    AccessPolicy policy = new AccessPolicy(config.collection());
    if (solrNode != null) {
      // changes made through Solr's own handlers let go of the PromQL answers kept from the points
      SolrUpdateWatch watch = new SolrUpdateWatch(policy,
          () -> storage == null ? PointChanges.NONE : storage.changes());
      watch.setHandler(solrNode.handler());
      // series fetched through /solr/<core>/query are large JSON (a 17 k-point series is 415 kB plain)
      contexts.addHandler(ResponseCompression.around(watch));
    }
    ingest.setContextPath("/");
    ingest.addServlet(new ServletHolder(new PingServlet()), "/ping");
    readiness.setHandler(ResponseCompression.around(ingest));
    contexts.addHandler(readiness);
    AccessHandler access = new AccessHandler(policy, config.credentials(),
        config.authEnabled(), config.openSolrAdminHandlers());
    access.setHandler(contexts);
    jetty.setHandler(RequestTimer.around(UnreadBodyDrain.around(access), durations));
    jetty.setStopTimeout(30_000);
  }

  private static void requireProtection(ServerConfig config) {
    if (!config.authEnabled() && !ServerConfig.isLoopback(config.host()) && !config.allowAnonymous()) {
      throw new IllegalArgumentException("http.host " + config.host() + " is reachable from other machines and auth is "
          + "off: anybody there could write, read and flush. Turn auth on (auth.enabled=true with users or tokens, "
          + "docs/security.md), or set auth.allowAnonymous=true if that is what you want");
    }
  }

  /**
   * The PromQL API's kept range answers (promql.cacheBytes), let go of as the storage's points
   * change, or null for none.
   */
  static RangeCache rangeCache(ServerConfig config, Storage storage) {
    long bytes = config.promqlCacheBytes();
    if (bytes <= 0) {
      return null;
    }
    RangeCache cache = new RangeCache(bytes, config.promqlCacheHorizon(), System::currentTimeMillis);
    storage.changes().to(cache);
    return cache;
  }

  public ChronixServer start() throws Exception {
    try {
      recentErrors.install();
      solrClientErrors.install();
      jetty.start();
      solrClient = switch (solrMode) {
        case EMBEDDED -> solrNode.client();
        case CLOUD -> CloudCollection.connect(config);
        case URL -> new Http2SolrClient.Builder(config.solrUrl()).build();
      };
      storage = Storage.open(config, solrClient, solrNode != null, walFiles);
      BatchWriter writer = storage.pipeline();
      if (solrMode == ServerConfig.SolrMode.CLOUD) {
        String self = config.clusterAdvertiseUrl().isEmpty() ? baseUrl() : config.clusterAdvertiseUrl();
        cluster = IngestCluster.join(config.zkHost(), config.zkSessionTimeout(), config.collection(), self,
            config.clusterToken(), storage);
        writer = cluster.writer();
        // no embedded node here: queries sent to this node's /solr go on to the cluster
        ingest.addServlet(new ServletHolder(new CloudQueryServlet(solrClient, config.collection())), "/solr/*");
      }
      // points older than their retention are refused on every protocol (docs/lifecycle.md)
      writer = RetentionFilter.around(writer, config.retentionRules(), System::currentTimeMillis);
      IngestCounters counters = new IngestCounters();
      RangeCache rangeCache = rangeCache(config, storage);
      ServerMetrics metrics = new ServerMetrics(storage, counters, recentErrors, solrClient, config.collection(),
          config.dataDir(), solrNode != null, System::currentTimeMillis).withRangeCache(rangeCache);
      HttpApi.mount(ingest, storage, writer, cluster != null, config, gate, solrClient, promqlFetchers, rangeCache,
          ChronixServer::epochNanos, new Observability(counters, metrics, recentErrors, durations),
          solrNode != null ? new Backups(solrClient, config.collection()).reportingTo(storage.changes()) : null);
      listeners = SocketListeners.open(config, writer, counters, ChronixServer::epochNanos, config.authEnabled());
      if (solrNode != null) {
        // the node shares this JVM, so its series queries can add what is not yet searchable
        solrNode.offer(storage.buffers());
        StartWarmUp.atStart(config, solrNode, promqlFetchers);
      }
      readiness.ready();
      LOG.info("Chronix server ready at {} (Solr: {}, data: {}, auth {})", baseUrl(),
          switch (solrMode) {
            case EMBEDDED -> "embedded at /solr";
            case CLOUD -> "SolrCloud at " + config.zkHost();
            case URL -> config.solrUrl();
          }, config.dataDir().toAbsolutePath(),
          config.authEnabled() ? "on" : "off");
    } catch (Exception | Error e) {
      try {
        close(); // a server that cannot start holds no port, thread or client
      } catch (Exception cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
    return this;
  }

  /** The embedded Solr node, or null when the records live elsewhere. */
  EmbeddedSolrNode solrNode() {
    return solrNode;
  }

  static long epochNanos() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }

  /** Bound port of the Graphite TCP listener, -1 when off. */
  public int graphiteTcpPort() {
    return listeners.graphiteTcpPort();
  }

  public int graphiteUdpPort() {
    return listeners.graphiteUdpPort();
  }

  public int openTsdbTelnetPort() {
    return listeners.openTsdbTelnetPort();
  }

  /** The bound port (useful with http.port=0). */
  public int port() {
    return ((ServerConnector) jetty.getConnectors()[0]).getLocalPort();
  }

  public String baseUrl() {
    return (HttpConnectors.isTls(config) ? "https" : "http") + "://" + config.host() + ":" + port();
  }

  /** Base URL of the Solr that holds the records. */
  public String solrUrl() {
    // in SolrCloud mode this node passes queries on (CloudQueryServlet)
    return solrMode == ServerConfig.SolrMode.URL ? config.solrUrl() : baseUrl() + "/solr";
  }

  /** The collection's live ingest nodes as this one sees them: itself alone unless in SolrCloud with others. */
  public java.util.List<String> ingestNodes() {
    return cluster != null ? cluster.members() : java.util.List.of(baseUrl());
  }

  /** The embedded Solr node's cores; empty with an external Solr. */
  public java.util.Optional<org.apache.solr.core.CoreContainer> embeddedCores() {
    return solrNode == null ? java.util.Optional.empty() : solrNode.startedContainer();
  }

  public SeriesBuffers buffers() {
    return storage.buffers();
  }

  public boolean isReady() {
    return readiness.isReady();
  }

  @Override
  public synchronized void close() throws Exception {
    if (stopped) {
      return;
    }
    stopped = true;
    gate.close(30, TimeUnit.SECONDS);
    if (listeners != null) {
      listeners.close();
    }
    promqlFetchers.shutdownNow();
    if (cluster != null) {
      cluster.close(); // first: the other nodes stop forwarding here before the buffers are written
    }
    try {
      if (storage != null) {
        storage.close();
      }
    } finally {
      if (solrClient != null) {
        solrClient.close();
      }
      jetty.stop();
      solrClientErrors.uninstall();
      recentErrors.uninstall();
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
