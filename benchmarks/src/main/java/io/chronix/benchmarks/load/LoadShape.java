package io.chronix.benchmarks.load;

import java.util.List;
import java.util.stream.Stream;

/**
 * The numbers of the load, in one place, because the simulation sends them and the report divides
 * by them: 1,000 agents shaped like Telegraf (one host tag each; 18 input plugins, 10 float fields a
 * plugin, so 180 series an agent) gather every second and flush every 10 s, which makes 100 writes a
 * second of 1,800 points each: the 180,000 points/s of the KairosDB + Scylla figure the performance
 * issue asks for. Dashboard users ask at a fixed rate per request type, independent of how fast the
 * server answers (open model), so a slow server shows as latency and errors, not as less load.
 */
public final class LoadShape {

  /** System property with the server's base URL (http://127.0.0.1:port), read by the simulation. */
  public static final String BASE_URL_PROPERTY = "chronix.load.baseUrl";
  /** System property with the injection time in seconds. */
  public static final String SECONDS_PROPERTY = "chronix.load.seconds";

  public static final int AGENTS = 1_000;
  /** Telegraf-like input plugins: one measurement each, one line per plugin and gather. */
  public static final List<String> MEASUREMENTS = List.of("cpu", "mem", "disk", "diskio", "net", "netstat",
      "processes", "swap", "system", "kernel", "nstat", "procstat", "docker", "nginx", "jvm", "redis",
      "postgresql", "http_response");
  public static final int FIELDS = 10;
  public static final int FLUSH_SECONDS = 10;
  public static final int SERIES_PER_AGENT = MEASUREMENTS.size() * FIELDS;
  public static final int POINTS_PER_WRITE = SERIES_PER_AGENT * FLUSH_SECONDS;
  public static final double WRITES_PER_SECOND = (double) AGENTS / FLUSH_SECONDS;
  public static final double POINTS_PER_SECOND = WRITES_PER_SECOND * POINTS_PER_WRITE;

  /** Each of a mix's dashboard request types, asked this often a second (15/s in all). */
  public static final double QUERIES_PER_SECOND_PER_TYPE = 5;

  /** System property naming the dashboards' {@link Mix}, read by the simulation. */
  public static final String MIX_PROPERTY = "chronix.load.mix";

  public static final String WRITE = "write";
  public static final String QUERY_CF = "query cf max;avg 5m";
  public static final String QUERY_RAW = "query raw 5m";
  public static final String PROMQL_RANGE = "promql query_range 15m";
  public static final String PROMQL_MAX = "promql max_over_time 5m";
  public static final String PROMQL_RAW = "promql raw 5m";

  /** What the dashboard users ask: three request types, each at the same fixed rate. */
  public enum Mix {
    /** The performance issue's panels: Chronix' {@code /query} with {@code cf=} and raw, PromQL's range. */
    CHRONIX(QUERY_CF, QUERY_RAW, PROMQL_RANGE),
    /**
     * The same panels in PromQL alone (a 5-minute maximum, 5 minutes of raw points, the range), which
     * VictoriaMetrics answers as well: the mix that puts both servers under the same client.
     */
    PROMQL(PROMQL_MAX, PROMQL_RAW, PROMQL_RANGE);

    private final List<String> dashboards;

    Mix(String... dashboards) {
      this.dashboards = List.of(dashboards);
    }

    public List<String> dashboards() {
      return dashboards;
    }

    /** Request names as Gatling reports them, writes first. */
    public List<String> requests() {
      return Stream.concat(Stream.of(WRITE), dashboards.stream()).toList();
    }
  }

  private LoadShape() {}

  public static String host(int agent) {
    return String.format("agent-%04d", agent);
  }

  /** The series a field becomes (line protocol: measurement_field). */
  public static String seriesName(int measurement, int field) {
    return MEASUREMENTS.get(measurement) + "_v" + field;
  }
}
