package io.chronix.ingest.solr;

import io.chronix.core.live.LiveSeries;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Map;
import javax.servlet.DispatcherType;
import javax.servlet.ServletContextEvent;
import javax.servlet.ServletContextListener;
import javax.servlet.ServletException;
import org.apache.commons.io.file.PathUtils;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.embedded.EmbeddedSolrServer;
import org.apache.solr.core.CoreContainer;
import org.apache.solr.core.CoreDescriptor;
import org.apache.solr.core.SolrCore;
import org.apache.solr.update.UpdateLog;
import org.apache.solr.servlet.CoreContainerProvider;
import org.apache.solr.servlet.SolrDispatchFilter;
import org.eclipse.jetty.servlet.DefaultServlet;
import org.eclipse.jetty.servlet.FilterHolder;
import org.eclipse.jetty.servlet.ServletContextHandler;

/**
 * A Solr node inside the server process: Solr's own dispatch filter under {@code /solr} of the
 * server's Jetty, with its home under {@code <data dir>/solr} ({@link EmbeddedSolrHome}).
 */
public final class EmbeddedSolrNode {

  private static final long CORE_LOAD_TIMEOUT_MS = 120_000;
  /** Read once by Solr's TracerConfigurator, before the node's cores load. */
  static final String TRACE_IDS_PROPERTY = "solr.alwaysOnTraceId";
  /** Read once by Solr's search handler, when the first core loads. */
  static final String NO_REQUEST_IDS_PROPERTY = "solr.disableRequestId";
  /** Read by Solr's container as it loads. */
  static final String NO_V2_API_PROPERTY = "disable.v2.api";
  /** The core property that marks a core the server made for scratch work and may drop. */
  static final String SCRATCH_PROPERTY = "chronix.scratch";

  private final String collection;
  private final ServletContextHandler context;
  private final FilterHolder dispatch;
  private final LocalQueryDispatch localQueries;
  private final NodeKeyPair keys;

  /** @param rollups whether to hold a core for rollup tiers too */
  public EmbeddedSolrNode(Path dataDir, String collection, boolean rollups) throws IOException {
    EmbeddedSolrHome home = new EmbeddedSolrHome(dataDir);
    this.collection = collection;
    // on a fresh home the pair's thread makes it while the rest of the server starts; a solr.xml of
    // the operator's names a pair of its own, or none
    keys = home.prepareSolrXml() ? NodeKeyPair.under(home.path()) : NodeKeyPair.none();
    home.prepareCore(collection);
    if (rollups) {
      // rollup tiers (docs/lifecycle.md) live in a core of their own: no query of the records sees them
      home.prepareCore(rollupCore(collection));
    }
    // Solr complains at startup without it; its own log files would go here
    setUnlessSet("solr.log.dir", dataDir.resolve("logs").toAbsolutePath().toString());
    // Solr's stand-in tracer gave every request a trace id, read from and into its headers and
    // its logging context: a query that finds nothing spent 4.5 % of its CPU on tracing, 3.5 %
    // without it (perf, docs/benchmarks.md), for an id no log line of the server prints and no
    // other node receives. -Dsolr.alwaysOnTraceId=true brings it back.
    setUnlessSet(TRACE_IDS_PROPERTY, "false");
    // likewise Solr's search handler gave every query a request id, for the shards of a distributed
    // search to log: it put it into the logging context and copied the request's parameters to add
    // it (1 % of a one-hour max's CPU, perf, docs/benchmarks.md). This node's log lines print no
    // logging context; -Dsolr.disableRequestId=false brings the ids back.
    setUnlessSet(NO_REQUEST_IDS_PROPERTY, "true");
    // Solr's v2 API (its /api paths, a Jersey application the container builds as it starts) is
    // used by nothing of the server's; building it took about 0.5 s of a 4 s start
    // (docs/benchmarks.md). -Ddisable.v2.api=false brings it back.
    setUnlessSet(NO_V2_API_PROPERTY, "true");
    context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    context.setContextPath("/solr");
    context.setAttribute(SolrDispatchFilter.SOLRHOME_ATTRIBUTE, home.path().toString());
    context.setAttribute(SolrDispatchFilter.PROPERTIES_ATTRIBUTE, keys.solrProperties());
    // made meanwhile on a home's first start; Solr reads it when its container starts, the next listener
    context.addEventListener(new KeysBeforeSolr(keys));
    context.addEventListener(new CoreContainerProvider());
    // ahead of Solr's dispatch, which answers whatever the series queries' route leaves
    localQueries = new LocalQueryDispatch(() -> startedContainer().orElse(null));
    context.addFilter(new FilterHolder(localQueries), "/*", EnumSet.of(DispatcherType.REQUEST));
    dispatch = context.addFilter(SolrDispatchFilter.class, "/*", EnumSet.of(DispatcherType.REQUEST));
    // the filter answers everything; a servlet must exist for Jetty to route requests at all
    context.addServlet(DefaultServlet.class, "/");
  }

  /** Waits for the node's key pair to be on disk, as Solr's container does when it starts. */
  void awaitKeys() throws IOException {
    keys.awaitWritten();
  }

  /** Holds Solr's container back until the node's key pair is on disk: Solr reads it as it starts. */
  private record KeysBeforeSolr(NodeKeyPair keys) implements ServletContextListener {
    @Override
    public void contextInitialized(ServletContextEvent event) {
      try {
        keys.awaitWritten();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** A system property Solr reads, unless the operator set it (-D in CHRONIX_JAVA_OPTS). */
  private static void setUnlessSet(String property, String value) {
    System.getProperties().putIfAbsent(property, value);
  }

  /**
   * Starts making the node's key pair for a data directory whose solr.xml will name it, before
   * the server is built: on a fresh directory the pair takes 0.7-2.5 s to make, which this way
   * goes beside the logging's and Jetty's start rather than ahead of Solr's (docs/benchmarks.md).
   * The node built later takes the pair being made.
   */
  public static void startMakingKeys(Path dataDir) throws IOException {
    EmbeddedSolrHome home = new EmbeddedSolrHome(dataDir);
    if (home.ownSolrXml()) {
      NodeKeyPair.under(home.path());
    }
  }

  /** The core that holds the rollup records of a collection's series. */
  public static String rollupCore(String collection) {
    return collection + "_rollups";
  }

  /** How many series queries went to their core without Solr's dispatch ({@link LocalQueryDispatch}). */
  long localQueries() {
    return localQueries.answered();
  }

  /** The handler to mount into the server's Jetty. */
  public ServletContextHandler handler() {
    return context;
  }

  /** Valid once Jetty has started the context. */
  public CoreContainer coreContainer() {
    try {
      CoreContainer cores = ((SolrDispatchFilter) dispatch.getFilter()).getCores();
      cores.waitForLoadingCoresToFinish(CORE_LOAD_TIMEOUT_MS); // cores load on a background pool
      try (SolrCore core = cores.getCore(collection)) {
        if (core == null) {
          throw new IllegalStateException("embedded Solr did not load core '" + collection + "': "
              + cores.getCoreInitFailures().get(collection));
        }
        awaitTransactionLogReplay(core);
      }
      return cores;
    } catch (ServletException e) {
      throw new IllegalStateException("embedded Solr failed to start: " + e.getMessage(), e);
    }
  }

  /**
   * After a crash Solr replays its own transaction log in the background; records it restores
   * must be visible before the server decides which of its logged points are already stored.
   */
  private static void awaitTransactionLogReplay(SolrCore core) {
    UpdateLog log = core.getUpdateHandler().getUpdateLog();
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(CORE_LOAD_TIMEOUT_MS);
    while (log != null && log.getState() != UpdateLog.State.ACTIVE && System.nanoTime() < deadline) {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** The container if it ever started; Jetty normally shuts it down with the context. */
  public java.util.Optional<CoreContainer> startedContainer() {
    try {
      SolrDispatchFilter filter = (SolrDispatchFilter) dispatch.getFilter();
      return filter == null ? java.util.Optional.empty() : java.util.Optional.ofNullable(filter.getCores());
    } catch (ServletException | RuntimeException e) {
      return java.util.Optional.empty();
    }
  }

  /** Lets the node's series queries see the server's buffered points (until the node stops). */
  public void offer(LiveSeries liveSeries) {
    offer(collection, liveSeries);
  }

  /**
   * Lets the series queries of one of the node's cores see those buffered points (a scratch core's
   * those of a write path of its own); {@link #dropScratchCore} takes them back with the core.
   */
  public void offer(String core, LiveSeries liveSeries) {
    coreContainer().getObjectCache().put(LiveSeries.containerKey(core), liveSeries);
  }

  /**
   * The route of one core's series queries ({@code GET /solr/<core>/query}, {@link
   * LocalQueryDispatch}) as a context of its own, for a Jetty beside the server's: the start's
   * warm-up asks its scratch core through it. Other cores, and what that route leaves to Solr's
   * dispatch, are not found there: that Jetty has no access control.
   */
  public ServletContextHandler queryRoute(String core) {
    ServletContextHandler route = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    route.setContextPath("/solr");
    route.addFilter(new FilterHolder(new LocalQueryDispatch(() -> startedContainer().orElse(null), core)), "/*",
        EnumSet.of(DispatcherType.REQUEST));
    route.addServlet(DefaultServlet.class, "/");
    return route;
  }

  /** An in-process client; closing it leaves the node running. */
  public SolrClient client() {
    return new EmbeddedSolrServer(coreContainer(), collection);
  }

  /**
   * A new, empty core of that name beside the records' one, with the same configset, for work
   * that must not touch the user's records (the start's warm-up). Its core.properties marks it as
   * scratch ({@value #SCRATCH_PROPERTY}); a scratch core of that name left by a crash is dropped
   * first, and a core of that name without the mark is left alone: then this refuses.
   * {@link #dropScratchCore} removes the core with its files.
   */
  public SolrClient openScratchCore(String name) throws IOException {
    dropScratchCore(name);
    CoreContainer cores = coreContainer();
    Path instance = Path.of(cores.getSolrHome()).resolve(name);
    PackagedConfigSet.copyMissingTo(instance.resolve("conf"));
    // the container writes its core.properties, with these properties, and deletes it with the core
    cores.create(name, instance, Map.of(EmbeddedSolrHome.UPDATE_LOG_PROPERTY, "false",
        SCRATCH_PROPERTY, "true"), false);
    return new EmbeddedSolrServer(cores, name);
  }

  /**
   * Unloads a scratch core of that name and deletes its directory, if there is one.
   *
   * @throws IllegalStateException when a core of that name is not a scratch core: it stays
   */
  public void dropScratchCore(String name) throws IOException {
    CoreContainer cores = coreContainer();
    Path instance = Path.of(cores.getSolrHome()).resolve(name);
    CoreDescriptor loaded = cores.getCoreDescriptor(name);
    Path coreProperties = instance.resolve("core.properties");
    boolean scratch = loaded != null ? "true".equals(loaded.getCoreProperty(SCRATCH_PROPERTY, null))
        : !Files.exists(coreProperties) || "true".equals(EmbeddedSolrHome.properties(coreProperties)
            .getProperty(SCRATCH_PROPERTY));
    if (!scratch) {
      throw new IllegalStateException("the Solr core '" + name + "' in " + instance
          + " is not a scratch core of the server's: it is left as it is");
    }
    if (loaded != null) {
      cores.unload(name, true, true, true);
    }
    cores.getObjectCache().remove(LiveSeries.containerKey(name));
    if (Files.exists(instance)) {
      PathUtils.deleteDirectory(instance);
    }
  }
}
