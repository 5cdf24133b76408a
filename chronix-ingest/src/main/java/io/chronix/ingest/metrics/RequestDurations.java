package io.chronix.ingest.metrics;

import io.chronix.ingest.http.HttpApi;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * How long the server took over its HTTP requests, by route, as Prometheus histograms
 * ({@code chronix_http_request_duration_seconds}): the server's side of a latency that a client
 * measures with the network, its own pauses and its own queues added: without it a load's tail
 * could not be laid at the server's door or the client's (docs/benchmarks.md, "The dashboards'
 * tail, request by request"). Beside it, the CPU time of the threads that answered, for all
 * requests and for those over {@link #SLOW_NANOS}: a slow request that was on a CPU for most of
 * its time did work; one that was not waited, for a core, a lock or a pause (the same section:
 * under the Gatling load the slow ones had waited). Thread-safe, lock-free: a few adder increments
 * a request.
 */
public final class RequestDurations {

  /** The histogram family's name in {@code /metrics}. */
  public static final String NAME = "chronix_http_request_duration_seconds";
  /** The CPU time of the threads over their requests, by route. */
  public static final String CPU_NAME = "chronix_http_request_cpu_seconds";
  /** The time over the requests slower than {@link #SLOW_NANOS}, by route. */
  public static final String SLOW_NAME = "chronix_http_slow_request_seconds";
  /** The CPU time of the threads over the requests slower than {@link #SLOW_NANOS}, by route. */
  public static final String SLOW_CPU_NAME = "chronix_http_slow_request_cpu_seconds";

  /** A request over this long is slow: the dashboards' goal, and one of the bounds. */
  public static final long SLOW_NANOS = 10_000_000L;
  private static final long SLOW_MS = SLOW_NANOS / 1_000_000;

  /** Upper bounds in seconds, around the dashboards' goal of 10 ms; +Inf last. */
  static final double[] BOUNDS = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
      Double.POSITIVE_INFINITY};

  /** What a request was for: a label of few values, whatever paths clients send. */
  public enum Route {
    WRITE, PROMQL, PROMETHEUS_API, SOLR, INFLUX_QUERY, OTHER;

    final String label = name().toLowerCase(Locale.ROOT);

    /** The route of a request path. */
    public static Route of(String path) {
      if (HttpApi.WRITE_PATHS.contains(path)) {
        return WRITE;
      }
      if (path.equals("/api/v1/query") || path.equals("/api/v1/query_range")) {
        return PROMQL;
      }
      if (path.startsWith("/api/v1/")) {
        return PROMETHEUS_API;
      }
      if (path.startsWith("/solr/")) {
        return SOLR;
      }
      return path.equals("/query") ? INFLUX_QUERY : OTHER;
    }
  }

  private final Histogram[] histograms = new Histogram[Route.values().length];

  public RequestDurations() {
    for (int i = 0; i < histograms.length; i++) {
      histograms[i] = new Histogram();
    }
  }

  /**
   * One request of the route took {@code nanos}, of which its thread was on a CPU for
   * {@code cpuNanos}; a negative {@code cpuNanos} where the thread's CPU time is not known.
   */
  public void record(Route route, long nanos, long cpuNanos) {
    Histogram histogram = histograms[route.ordinal()];
    histogram.add(nanos);
    if (cpuNanos >= 0) {
      histogram.cpuNanos.add(cpuNanos);
      if (nanos > SLOW_NANOS) {
        histogram.slowNanos.add(nanos);
        histogram.slowCpuNanos.add(cpuNanos);
      }
    }
  }

  /** The histograms, then the CPU times and the slow requests' times as counters. */
  public List<MetricSnapshot> snapshots() {
    return List.of(histograms(),
        counters(CPU_NAME, "CPU time of the threads over their HTTP requests, by route",
            histogram -> histogram.cpuNanos),
        counters(SLOW_NAME, "Time over the HTTP requests slower than " + SLOW_MS + " ms, by route",
            histogram -> histogram.slowNanos),
        counters(SLOW_CPU_NAME,
            "CPU time of the threads over the HTTP requests slower than " + SLOW_MS + " ms, by route",
            histogram -> histogram.slowCpuNanos));
  }

  private CounterSnapshot counters(String name, String help, Function<Histogram, LongAdder> nanos) {
    CounterSnapshot.Builder family = CounterSnapshot.builder().name(name).help(help).unit(Unit.SECONDS);
    for (Route route : Route.values()) {
      Histogram histogram = histograms[route.ordinal()];
      if (histogram.total() > 0) {
        family.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
            .labels(Labels.of("route", route.label)).value(nanos.apply(histogram).sum() / 1e9).build());
      }
    }
    return family.build();
  }

  private HistogramSnapshot histograms() {
    HistogramSnapshot.Builder family = HistogramSnapshot.builder().name(NAME)
        .help("Time from an HTTP request's headers to its handler's return (its body read meanwhile), by route");
    for (Route route : Route.values()) {
      Histogram histogram = histograms[route.ordinal()];
      if (histogram.total() == 0) {
        continue;
      }
      long[] counts = histogram.counts();
      family.dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
          .labels(Labels.of("route", route.label))
          .classicHistogramBuckets(ClassicHistogramBuckets.of(BOUNDS, counts))
          .sum(histogram.sumNanos.sum() / 1e9)
          .build());
    }
    return family.build();
  }

  /**
   * Counts per bucket (not cumulative), the sum and the CPU times, each an adder: requests on many
   * threads.
   */
  private static final class Histogram {
    private final LongAdder[] buckets = new LongAdder[BOUNDS.length];
    private final LongAdder sumNanos = new LongAdder();
    private final LongAdder cpuNanos = new LongAdder();
    private final LongAdder slowNanos = new LongAdder();
    private final LongAdder slowCpuNanos = new LongAdder();

    Histogram() {
      for (int i = 0; i < buckets.length; i++) {
        buckets[i] = new LongAdder();
      }
    }

    void add(long nanos) {
      double seconds = nanos / 1e9;
      int bucket = 0;
      while (seconds > BOUNDS[bucket]) {
        bucket++; // the last bound is infinite
      }
      buckets[bucket].increment();
      sumNanos.add(nanos);
    }

    long total() {
      long total = 0;
      for (LongAdder bucket : buckets) {
        total += bucket.sum();
      }
      return total;
    }

    long[] counts() {
      long[] counts = new long[buckets.length];
      for (int i = 0; i < counts.length; i++) {
        counts[i] = buckets[i].sum();
      }
      return counts;
    }
  }
}
