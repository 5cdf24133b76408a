package io.chronix.ingest.metrics;

import io.chronix.ingest.http.JsonResponses;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code GET /metrics}: the server's own figures in Prometheus' text format (0.0.4), written by
 * Prometheus' own exposition library, so the server can be scraped like any other target.
 */
public final class MetricsServlet extends HttpServlet {

  private final transient ServerMetrics metrics;
  private final transient RequestDurations durations;

  public MetricsServlet(ServerMetrics metrics, RequestDurations durations) {
    this.metrics = metrics;
    this.durations = durations;
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
    MetricSnapshots snapshots;
    try {
      snapshots = snapshots(metrics.collect(), durations);
    } catch (IOException e) {
      JsonResponses.error(response, 503, "metrics not available now: " + e.getMessage());
      return;
    }
    PrometheusTextFormatWriter writer = new PrometheusTextFormatWriter(false);
    response.setStatus(200);
    response.setContentType(writer.getContentType());
    writer.write(response.getOutputStream(), snapshots);
  }

  /** Samples of one name become one metric family with a data point per label set; the durations follow. */
  static MetricSnapshots snapshots(List<ServerMetrics.Sample> samples, RequestDurations durations) {
    Map<String, List<ServerMetrics.Sample>> families = new LinkedHashMap<>();
    for (ServerMetrics.Sample sample : samples) {
      families.computeIfAbsent(sample.name(), name -> new ArrayList<>()).add(sample);
    }
    List<MetricSnapshot> snapshots = new ArrayList<>();
    for (List<ServerMetrics.Sample> family : families.values()) {
      ServerMetrics.Sample first = family.get(0);
      if (first.kind() == ServerMetrics.Kind.COUNTER) {
        CounterSnapshot.Builder counter = CounterSnapshot.builder().name(first.name()).help(first.help());
        for (ServerMetrics.Sample sample : family) {
          counter.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels(sample))
              .value(sample.value()).build());
        }
        snapshots.add(counter.build());
      } else {
        GaugeSnapshot.Builder gauge = GaugeSnapshot.builder().name(first.name()).help(first.help());
        for (ServerMetrics.Sample sample : family) {
          gauge.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels(sample))
              .value(sample.value()).build());
        }
        snapshots.add(gauge.build());
      }
    }
    snapshots.addAll(durations.snapshots());
    return new MetricSnapshots(snapshots);
  }

  private static Labels labels(ServerMetrics.Sample sample) {
    return Labels.of(List.copyOf(sample.labels().keySet()), List.copyOf(sample.labels().values()));
  }
}
