package io.chronix.benchmarks.load;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import io.gatling.javaapi.http.HttpRequestActionBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/**
 * The performance issue's load: agents writing line protocol at a fixed 180,000 points/s while
 * dashboard users read recent data at a fixed rate (shape and rates: {@link LoadShape}; the
 * dashboards' requests: the {@link LoadShape.Mix} named by {@link LoadShape#MIX_PROPERTY}). Every
 * request type has its own name so Gatling reports its latency apart; a write counts as failed
 * unless it is acknowledged with 204, a query unless it answers 200. Each virtual user is one
 * request (open model): the rate stays fixed however slowly the server answers.
 *
 * <p>Run by {@code io.chronix.benchmarks.Load}, which passes {@link LoadShape#BASE_URL_PROPERTY}
 * and {@link LoadShape#SECONDS_PROPERTY}, and for the peers' mix {@link LoadShape#MIX_PROPERTY}.
 */
public class LoadSimulation extends Simulation {

  private final AgentFlushes flushes = new AgentFlushes();
  private final AtomicLong flushCount = new AtomicLong();

  public LoadSimulation() {
    String baseUrl = System.getProperty(LoadShape.BASE_URL_PROPERTY);
    if (baseUrl == null) {
      throw new IllegalStateException("set -D" + LoadShape.BASE_URL_PROPERTY + "=http://host:port");
    }
    Duration during = Duration.ofSeconds(Long.getLong(LoadShape.SECONDS_PROPERTY, 60));

    // agents and dashboards keep their connections as real ones do; no browser behaviour
    HttpProtocolBuilder protocol = http.baseUrl(baseUrl)
        .disableCaching()
        .disableWarmUp()
        .disableFollowRedirect()
        .shareConnections();

    List<PopulationBuilder> populations = new ArrayList<>();
    populations.add(fixedRate(agents(), LoadShape.WRITES_PER_SECOND, during));
    for (String name : LoadShape.Mix.valueOf(System.getProperty(LoadShape.MIX_PROPERTY, "CHRONIX")).dashboards()) {
      populations.add(fixedRate(dashboard(name, request(name)), LoadShape.QUERIES_PER_SECOND_PER_TYPE, during));
    }
    setUp(populations)
        .protocols(protocol)
        // in-flight requests may finish (a request times out after 60 s); then the run ends anyway
        .maxDuration(during.plusSeconds(90));
  }

  private static PopulationBuilder fixedRate(ScenarioBuilder scenario, double perSecond, Duration during) {
    return scenario.injectOpen(constantUsersPerSec(perSecond).during(during));
  }

  /** One flush of the agents in turn: agent n flushes every {@link LoadShape#FLUSH_SECONDS} s. */
  private ScenarioBuilder agents() {
    return scenario("agents")
        .exec(session -> session.set("body", flushes.next((int) (flushCount.getAndIncrement() % LoadShape.AGENTS))))
        .exec(expect(http(LoadShape.WRITE).post("/write")
            .queryParam("precision", "s")
            .header("Content-Type", "text/plain; charset=utf-8")
            .body(StringBody(session -> session.getString("body"))), LoadShape.WRITE, 204));
  }

  private static ScenarioBuilder dashboard(String name, HttpRequestActionBuilder request) {
    return scenario(name).exec(LoadSimulation::pickSeries).exec(expect(request, name, 200));
  }

  /** A random agent's random series, and the second the panel is drawn at. */
  private static Session pickSeries(Session session) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    return session
        .set("series", LoadShape.seriesName(random.nextInt(LoadShape.MEASUREMENTS.size()),
            random.nextInt(LoadShape.FIELDS)))
        .set("host", LoadShape.host(random.nextInt(LoadShape.AGENTS)))
        .set("now", System.currentTimeMillis() / 1000);
  }

  private static String lastMinutes(Session session, int minutes) {
    return "name:" + session.getString("series") + " AND host:\"" + session.getString("host") + "\""
        + " AND start:NOW-" + minutes + "MINUTES AND end:NOW";
  }

  private static HttpRequestActionBuilder request(String name) {
    return switch (name) {
      case LoadShape.QUERY_CF -> cfQuery();
      case LoadShape.QUERY_RAW -> rawQuery();
      case LoadShape.PROMQL_RANGE -> promqlRange();
      case LoadShape.PROMQL_MAX -> promqlInstant(name, selector -> "max_over_time(" + selector + "[5m])");
      case LoadShape.PROMQL_RAW -> promqlInstant(name, selector -> selector + "[5m]");
      default -> throw new IllegalArgumentException("no dashboard request named " + name);
    };
  }

  /** The picked series as a PromQL selector. */
  private static String selector(Session session) {
    return session.getString("series") + "{host=\"" + session.getString("host") + "\"}";
  }

  /** An instant query at the panel's second of an expression over the picked series' selector. */
  private static HttpRequestActionBuilder promqlInstant(String name, UnaryOperator<String> expression) {
    return http(name).get("/api/v1/query")
        .queryParam("query", session -> expression.apply(selector(session)))
        .queryParam("time", session -> session.getLong("now"));
  }

  private static HttpRequestActionBuilder cfQuery() {
    return http(LoadShape.QUERY_CF).get("/solr/chronix/query")
        .queryParam("q", session -> lastMinutes(session, 5))
        .queryParam("fl", "name,host")
        .queryParam("cf", "metric{max;avg}");
  }

  private static HttpRequestActionBuilder rawQuery() {
    return http(LoadShape.QUERY_RAW).get("/solr/chronix/query")
        .queryParam("q", session -> lastMinutes(session, 5))
        .queryParam("fl", "dataAsJson");
  }

  private static HttpRequestActionBuilder promqlRange() {
    return http(LoadShape.PROMQL_RANGE).get("/api/v1/query_range")
        .queryParam("query", LoadSimulation::selector)
        .queryParam("start", session -> session.getLong("now") - 15 * 60)
        .queryParam("end", session -> session.getLong("now"))
        .queryParam("step", "15s");
  }

  /**
   * Fails the request unless it has the expected status; every answer is shown to {@link Answers}
   * before the check, for the bodies of unexpected answers and the count of answers with data.
   */
  private static HttpRequestActionBuilder expect(HttpRequestActionBuilder request, String name, int expected) {
    return request
        .transformResponse((response, session) -> {
          Answers.record(name, expected, response.status().code(), () -> response.body().string());
          return response;
        })
        .check(status().is(expected));
  }
}
