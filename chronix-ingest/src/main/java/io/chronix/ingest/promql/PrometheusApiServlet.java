package io.chronix.ingest.promql;

import com.fasterxml.jackson.core.JsonGenerator;
import io.chronix.analysis.promql.engine.Engine;
import io.chronix.analysis.promql.engine.PromQlException;
import io.chronix.analysis.promql.engine.QueryLimits;
import io.chronix.analysis.promql.engine.QueryResult;
import io.chronix.analysis.promql.engine.RangeCache;
import io.chronix.core.series.PrometheusNames;
import io.chronix.ingest.http.FormParameters;
import io.chronix.ingest.protocol.MalformedBodyException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Prometheus' HTTP query API under {@code /api/v1/} (docs/promql.md), as Grafana's Prometheus
 * datasource and promtool use it: query, query_range, series, labels, label values, metadata,
 * build info, and empty answers for exemplars, rules and alerts. GET or form-encoded POST.
 */
public final class PrometheusApiServlet extends HttpServlet {

  private static final Logger LOG = LoggerFactory.getLogger(PrometheusApiServlet.class);
  /** The Prometheus version reported to clients: Grafana enables match[] on label lookups from 2.24 on. */
  static final String PROMETHEUS_VERSION = "2.53.0";
  private static final String TRUNCATED = "results truncated due to limit";
  /** Request parameter: {@code false} reads the samples even where a rollup tier answers (docs/lifecycle.md). */
  static final String ROLLUPS = "chronix.rollups";
  /** Request parameter: {@code 1} or {@code true} evaluates every step, as VictoriaMetrics' switch of its cache does. */
  static final String NO_CACHE = "nocache";
  /** Response header naming the rollup tiers a range query read. */
  static final String ROLLUP_HEADER = "X-Chronix-Rollup";

  private final transient Engine engine;
  /** The same engine without rollup tiers: {@code chronix.rollups=false} reads the samples. */
  private final transient Engine samplesOnly;
  private final transient SeriesCatalog catalog;
  private final transient QueryLimits limits;
  private final transient LongSupplier clockMillis;
  /** Range answers kept for the next request of the same query, or null. */
  private transient RangeCache ranges;

  public PrometheusApiServlet(Engine engine, SeriesCatalog catalog, QueryLimits limits, LongSupplier clockMillis) {
    this.engine = engine;
    this.samplesOnly = engine.withoutTiers();
    this.catalog = catalog;
    this.limits = limits;
    this.clockMillis = clockMillis;
  }

  /** Answers range queries from {@code cache} where it holds their steps (null: evaluates every one). */
  public PrometheusApiServlet keepingRanges(RangeCache cache) {
    this.ranges = cache;
    return this;
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
    serve(request, response);
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
    serve(request, response);
  }

  private void serve(HttpServletRequest request, HttpServletResponse response) throws IOException {
    String path = request.getPathInfo() == null ? "" : request.getPathInfo();
    try {
      FormParameters.readAhead(request);
      route(path, request, response);
    } catch (MalformedBodyException e) {
      ApiWriter.error(response, PromQlException.badData(e.getMessage()));
    } catch (PromQlException e) {
      ApiWriter.error(response, e);
    } catch (RuntimeException e) {
      LOG.warn("PromQL API request {} failed", path, e);
      ApiWriter.error(response, new PromQlException(PromQlException.Type.INTERNAL, String.valueOf(e.getMessage()), e));
    }
  }

  private void route(String path, HttpServletRequest request, HttpServletResponse response) throws IOException {
    switch (path) {
      case "/query":
        query(request, response);
        return;
      case "/query_range":
        queryRange(request, response);
        return;
      case "/series":
        series(request, response);
        return;
      case "/labels":
        labelNames(request, response);
        return;
      case "/metadata":
        ApiWriter.success(response, json -> {
          json.writeStartObject();
          json.writeEndObject();
        }, List.of(), List.of());
        return;
      case "/status/buildinfo":
        buildInfo(request, response);
        return;
      case "/query_exemplars":
        ApiWriter.success(response, json -> {
          json.writeStartArray();
          json.writeEndArray();
        }, List.of(), List.of());
        return;
      case "/rules":
        emptyList(request, response, "groups");
        return;
      case "/alerts":
        emptyList(request, response, "alerts");
        return;
      default:
    }
    if (path.startsWith("/label/") && path.endsWith("/values")) {
      labelValues(path.substring("/label/".length(), path.length() - "/values".length()), request, response);
      return;
    }
    ApiWriter.notFound(response, "unknown API endpoint /api/v1" + path);
  }

  private QueryLimits limits(HttpServletRequest request) {
    String timeout = request.getParameter("timeout");
    if (timeout == null || timeout.isEmpty()) {
      return limits;
    }
    long millis = ApiParameters.duration("timeout", timeout);
    return millis > 0 && millis < limits.timeout().toMillis() ? limits.withTimeout(Duration.ofMillis(millis)) : limits;
  }

  private void query(HttpServletRequest request, HttpServletResponse response) throws IOException {
    String query = request.getParameter("query");
    long time = ApiParameters.timeOr("time", request.getParameter("time"), clockMillis.getAsLong());
    QueryResult result = engine.instant(query == null ? "" : query, time, limits(request));
    respond(request, response, result);
  }

  private void queryRange(HttpServletRequest request, HttpServletResponse response) throws IOException {
    String query = request.getParameter("query");
    long start = ApiParameters.time("start", request.getParameter("start"));
    long end = ApiParameters.time("end", request.getParameter("end"));
    if (end < start) {
      throw ApiParameters.invalid("end", "end timestamp must not be before start time");
    }
    long step = ApiParameters.duration("step", request.getParameter("step"));
    if (step <= 0) {
      throw ApiParameters.invalid("step", "zero or negative query resolution step widths are not accepted. Try a positive integer");
    }
    Engine chosen = "false".equals(request.getParameter(ROLLUPS)) ? samplesOnly : engine;
    String text = query == null ? "" : query;
    String noCache = request.getParameter(NO_CACHE);
    boolean keep = ranges != null && !"1".equals(noCache) && !"true".equals(noCache);
    QueryResult result = keep ? ranges.range(chosen, text, start, end, step, limits(request))
        : chosen.range(text, start, end, step, limits(request));
    if (!result.tiers().isEmpty()) {
      response.setHeader(ROLLUP_HEADER, String.join(",", result.tiers()));
    }
    respond(request, response, result);
  }

  private void respond(HttpServletRequest request, HttpServletResponse response, QueryResult result) throws IOException {
    ApiWriter.success(response, json -> ApiWriter.result(json, result.data()), result.warnings(), result.infos());
  }

  private static List<String> selectors(HttpServletRequest request) {
    return ApiParameters.selectors(request.getParameterValues("match[]"));
  }

  /** The request's start and end (epoch milliseconds; all time where not given). */
  private static long[] range(HttpServletRequest request) {
    return new long[] {ApiParameters.timeOr("start", request.getParameter("start"), ApiParameters.MIN_TIME),
        ApiParameters.timeOr("end", request.getParameter("end"), ApiParameters.MAX_TIME)};
  }

  private void series(HttpServletRequest request, HttpServletResponse response) throws IOException {
    List<String> selectors = selectors(request);
    if (selectors.isEmpty()) {
      throw PromQlException.badData("no match[] parameter provided");
    }
    long[] range = range(request);
    List<ListedSeries> series = catalog.listed(selectors, range[0], range[1]);
    int limit = ApiParameters.limit(request.getParameter("limit"));
    List<String> warnings = new ArrayList<>();
    if (limit > 0 && series.size() > limit) {
      series = series.subList(0, limit);
      warnings.add(TRUNCATED);
    }
    List<ListedSeries> answer = series;
    ApiWriter.success(response, json -> {
      WrittenLabelNames names = new WrittenLabelNames();
      json.writeStartArray();
      for (ListedSeries listed : answer) {
        if (listed.json() != null) {
          json.writeRawValue(new RawUtf8Value(listed.json(), listed.json().length));
        } else {
          ApiWriter.labels(json, listed.labels(), names);
        }
      }
      json.writeEndArray();
    }, warnings, List.of());
  }

  private void labelNames(HttpServletRequest request, HttpServletResponse response) throws IOException {
    long[] range = range(request);
    strings(request, response, catalog.labelNames(selectors(request), range[0], range[1]));
  }

  private void labelValues(String name, HttpServletRequest request, HttpServletResponse response) throws IOException {
    long[] range = range(request);
    strings(request, response, catalog.labelValues(PrometheusNames.unescape(name), selectors(request), range[0], range[1]));
  }

  private void strings(HttpServletRequest request, HttpServletResponse response, List<String> all) throws IOException {
    int limit = ApiParameters.limit(request.getParameter("limit"));
    List<String> warnings = new ArrayList<>();
    List<String> values = all;
    if (limit > 0 && values.size() > limit) {
      values = values.subList(0, limit);
      warnings.add(TRUNCATED);
    }
    List<String> answer = values;
    ApiWriter.success(response, json -> {
      json.writeStartArray();
      for (String value : answer) {
        json.writeString(value);
      }
      json.writeEndArray();
    }, warnings, List.of());
  }

  private void buildInfo(HttpServletRequest request, HttpServletResponse response) throws IOException {
    ApiWriter.success(response, json -> {
      json.writeStartObject();
      json.writeStringField("version", PROMETHEUS_VERSION);
      json.writeStringField("revision", "chronix");
      json.writeStringField("branch", "chronix");
      json.writeStringField("buildUser", "chronix");
      json.writeStringField("buildDate", "");
      json.writeStringField("goVersion", "java" + System.getProperty("java.specification.version"));
      json.writeEndObject();
    }, List.of(), List.of());
  }

  private static void emptyList(HttpServletRequest request, HttpServletResponse response, String field) throws IOException {
    ApiWriter.success(response, (JsonGenerator json) -> {
      json.writeStartObject();
      json.writeArrayFieldStart(field);
      json.writeEndArray();
      json.writeEndObject();
    }, List.of(), List.of());
  }
}
