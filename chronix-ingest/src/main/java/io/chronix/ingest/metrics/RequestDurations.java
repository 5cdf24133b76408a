package io.chronix.ingest.metrics;

import io.chronix.ingest.http.HttpApi;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/**
 * How long the server took over its HTTP requests, by route, as Prometheus histograms
 * ({@code chronix_http_request_duration_seconds}): the server's side of a latency that a client
 * measures with the network, its own pauses and its own queues added: without it a load's tail
 * could not be laid at the server's door or the client's (docs/benchmarks.md, "The dashboards'
 * tail, request by request"). Thread-safe, lock-free: a few adder increments a request.
 */
public final class RequestDurations {

  /** The histogram family's name in {@code /metrics}. */
  public static final String NAME = "chronix_http_request_duration_seconds";

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

  /** One request of the route took {@code nanos}. */
  public void record(Route route, long nanos) {
    histograms[route.ordinal()].add(nanos);
  }

  /** Every route that has seen a request, as one histogram family. */
  public HistogramSnapshot snapshot() {
    HistogramSnapshot.Builder family = HistogramSnapshot.builder().name(NAME)
        .help("Time from an HTTP request's headers to its handler's return (its body read meanwhile), by route");
    for (Route route : Route.values()) {
      Histogram histogram = histograms[route.ordinal()];
      long[] counts = histogram.counts();
      long total = 0;
      for (long count : counts) {
        total += count;
      }
      if (total == 0) {
        continue;
      }
      family.dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
          .labels(Labels.of("route", route.label))
          .classicHistogramBuckets(ClassicHistogramBuckets.of(BOUNDS, counts))
          .sum(histogram.sumNanos.sum() / 1e9)
          .build());
    }
    return family.build();
  }

  /** Counts per bucket (not cumulative) and the sum, each an adder: requests on many threads. */
  private static final class Histogram {
    private final LongAdder[] buckets = new LongAdder[BOUNDS.length];
    private final LongAdder sumNanos = new LongAdder();

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

    long[] counts() {
      long[] counts = new long[buckets.length];
      for (int i = 0; i < counts.length; i++) {
        counts[i] = buckets[i].sum();
      }
      return counts;
    }
  }
}
