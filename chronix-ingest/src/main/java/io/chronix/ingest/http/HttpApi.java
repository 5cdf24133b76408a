package io.chronix.ingest.http;

import io.chronix.analysis.promql.engine.Engine;
import io.chronix.core.budget.PointBudget;
import io.chronix.ingest.Storage;
import io.chronix.ingest.cluster.ForwardServlet;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.lifecycle.BackupServlet;
import io.chronix.ingest.lifecycle.Backups;
import io.chronix.ingest.lifecycle.DeleteSeriesServlet;
import io.chronix.ingest.console.ConsoleFiles;
import io.chronix.ingest.metrics.IngestCounters;
import io.chronix.ingest.metrics.MetricsServlet;
import io.chronix.ingest.metrics.Observability;
import io.chronix.ingest.metrics.StatusApiServlet;
import io.chronix.ingest.pipeline.BatchWriter;
import io.chronix.analysis.promql.engine.RangeCache;
import io.chronix.ingest.promql.PrometheusApiServlet;
import io.chronix.ingest.promql.SeriesCatalog;
import io.chronix.ingest.promql.SolrSeriesSource;
import io.chronix.ingest.protocol.collectd.CollectdServlet;
import io.chronix.ingest.protocol.influx.InfluxQueryServlet;
import io.chronix.ingest.protocol.influx.LineProtocolServlet;
import io.chronix.ingest.protocol.opentsdb.OpenTsdbServlet;
import io.chronix.ingest.protocol.prometheus.RemoteReadServlet;
import io.chronix.ingest.protocol.prometheus.RemoteWriteServlet;
import io.chronix.ingest.transfer.ExportServlet;
import io.chronix.ingest.transfer.ImportServlet;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;
import javax.servlet.DispatcherType;
import org.apache.solr.client.solrj.SolrClient;
import org.eclipse.jetty.servlet.FilterHolder;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;
import org.eclipse.jetty.servlets.QoSFilter;

/**
 * The server's HTTP endpoints on the ingest context, with their concurrency limits: what is
 * mounted where is read here, in one place.
 */
public final class HttpApi {

  public static final List<String> WRITE_PATHS = List.of("/write", "/api/v2/write", "/api/v1/write", "/api/put", "/collectd",
      "/api/v1/import", "/internal/forward");

  private HttpApi() {}

  /**
   * Mounts every endpoint. Writes, queries and administration each get a bound on requests at once
   * (http.maxConcurrentWrites, http.maxConcurrentQueries, one at a time for flush and compact):
   * the rest wait, which slows their senders, and get 503 after http.writeQueueTimeout.
   */
  /**
   * @param writer where the protocols' points go: this node's pipeline, or the router of a node
   *     among several ({@link io.chronix.ingest.cluster.OwnerRouter})
   * @param forwardTarget whether other ingest nodes forward points here ({@link ForwardServlet})
   */
  public static void mount(ServletContextHandler context, Storage storage, BatchWriter writer, boolean forwardTarget,
      ServerConfig config, RequestGate gate, SolrClient solr, Executor promqlFetchers, RangeCache rangeCache,
      LongSupplier clockNanos,
      Observability observability, Backups backups) {
    context.setErrorHandler(new JsonErrorHandler());
    long maxBody = config.maxRequestBytes();
    IngestCounters counters = observability.counters();
    mountWrites(context, writer, config, gate, counters, clockNanos);
    if (forwardTarget) {
      // forwarded points are this node's own: they go to its pipeline, never on to another node
      context.addServlet(new ServletHolder(new ForwardServlet(counters.counting("forwarded", storage.pipeline()), gate,
          maxBody)), "/internal/forward");
    }

    context.addServlet(new ServletHolder(new FlushServlet(storage)), "/flush");
    context.addServlet(new ServletHolder(new CompactServlet(storage.compactor())), "/compact");
    context.addServlet(new ServletHolder(new StatusServlet(storage)), "/status");
    context.addServlet(new ServletHolder(new DeleteSeriesServlet(storage, storage.deleter())),
        "/api/v1/admin/tsdb/delete_series");
    if (backups != null) {
      context.addServlet(new ServletHolder(new BackupServlet(storage, backups, false)),
          "/admin/backup");
      context.addServlet(new ServletHolder(new BackupServlet(storage, backups, true)),
          "/admin/restore");
    } else {
      ServletHolder elsewhere = new ServletHolder(new NotHereServlet("backup and restore through the server work "
          + "with its embedded Solr node; with an external Solr or SolrCloud use Solr's own backup "
          + "(docs/lifecycle.md)"));
      context.addServlet(elsewhere, "/admin/backup");
      context.addServlet(elsewhere, "/admin/restore");
    }
    limit(context, "administration", 1, config.writeQueueTimeout(),
        List.of("/flush", "/compact", "/api/v1/admin/tsdb/delete_series", "/admin/backup", "/admin/restore"));

    context.addServlet(new ServletHolder(new InfluxQueryServlet(config.collection())), "/query");
    mountReads(context, solr, config, promqlFetchers, rangeCache);
    context.addServlet(new ServletHolder(new MetricsServlet(observability.metrics(), observability.durations())),
        "/metrics");
    context.addServlet(new ServletHolder(new StatusApiServlet(observability.metrics(), observability.errors())),
        "/api/v1/status/chronix");
    ConsoleFiles.mount(context);
    limit(context, "queries", config.maxConcurrentQueries(), config.writeQueueTimeout(),
        List.of("/api/v1/query", "/api/v1/query_range", "/api/v1/series", "/api/v1/labels", "/api/v1/label/*",
            "/api/v1/read", "/api/v1/export"));
  }

  /**
   * The Prometheus read side over the records of {@code config}'s collection: remote read, the
   * HTTP API with its PromQL engine, the export; the server's and the start's warm-up's ({@code
   * StartWarmUp}), so that the warm-up runs the path dashboards take.
   */
  public static void mountReads(ServletContextHandler context, SolrClient solr, ServerConfig config,
      Executor promqlFetchers, RangeCache rangeCache) {
    SolrSeriesSource source = new SolrSeriesSource(solr, config.collection(), config.promqlMaxSeries());
    // the samples of all PromQL queries in flight together within one query's limit
    Engine engine = new Engine(source.withTiers(config.rollupTiers().forPromQl()), promqlFetchers,
        new PointBudget(config.promqlLimits().maxSamples()));
    context.addServlet(new ServletHolder(new RemoteReadServlet(source, config.maxRequestBytes(),
        config.promqlLimits().maxSamples())), "/api/v1/read");
    context.addServlet(new ServletHolder(new PrometheusApiServlet(engine, new SeriesCatalog(solr, config.collection()),
        config.promqlLimits(), System::currentTimeMillis).keepingRanges(rangeCache)), "/api/v1/*");
    context.addServlet(new ServletHolder(new ExportServlet(solr, config.collection())), "/api/v1/export");
  }

  /**
   * The protocols' write endpoints into {@code writer}, with the limits on concurrent writes and
   * bodies in flight: the server's and the start's warm-up's ({@code StartWarmUp}), so that the
   * warm-up runs the path clients take.
   */
  public static void mountWrites(ServletContextHandler context, BatchWriter writer, ServerConfig config,
      RequestGate gate, IngestCounters counters, LongSupplier clockNanos) {
    long maxBody = config.maxRequestBytes();
    LineProtocolServlet lineProtocol = new LineProtocolServlet(counters.counting("influx", writer), gate, maxBody);
    context.addServlet(new ServletHolder(lineProtocol), "/write");
    context.addServlet(new ServletHolder(lineProtocol), "/api/v2/write");
    context.addServlet(new ServletHolder(new RemoteWriteServlet(counters.counting("prometheus_remote_write", writer),
        gate, maxBody)), "/api/v1/write");
    context.addServlet(new ServletHolder(new OpenTsdbServlet(counters.counting("opentsdb_http", writer), gate, maxBody,
        clockNanos)), "/api/put");
    context.addServlet(new ServletHolder(new CollectdServlet(counters.counting("collectd", writer), gate, maxBody,
        clockNanos)), "/collectd");
    context.addServlet(new ServletHolder(new ImportServlet(counters.counting("json_lines_import", writer), gate,
        maxBody)), "/api/v1/import");
    limit(context, "writes", config.maxConcurrentWrites(), config.writeQueueTimeout(), WRITE_PATHS);
    FilterHolder bodies = new FilterHolder(new BodyBudget(config.maxBodyBytesInFlight(),
        config.writeQueueTimeout().toMillis()));
    for (String path : WRITE_PATHS) {
      context.addFilter(bodies, path, EnumSet.of(DispatcherType.REQUEST));
    }
  }

  private static void limit(ServletContextHandler context, String name, int maxRequests, Duration wait,
      List<String> paths) {
    FilterHolder filter = new FilterHolder(QoSFilter.class);
    filter.setName("limit-" + name);
    filter.setInitParameter("maxRequests", String.valueOf(maxRequests));
    filter.setInitParameter("waitMs", "50");
    filter.setInitParameter("suspendMs", String.valueOf(wait.toMillis()));
    for (String path : paths) {
      context.addFilter(filter, path, EnumSet.of(DispatcherType.REQUEST));
    }
  }
}
