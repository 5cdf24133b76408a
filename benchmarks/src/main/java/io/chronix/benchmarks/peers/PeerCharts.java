package io.chronix.benchmarks.peers;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

/** The comparison's charts (XChart, PNG): values/s per load, query latency p50 and p99 per query group. */
final class PeerCharts {

  private PeerCharts() {}

  static void write(List<PeerRun> runs, Workloads workloads, Path dir, String prefix) throws IOException {
    System.setProperty("java.awt.headless", "true");
    List<String> loads = List.of("P4 line protocol", "10k-series stream", "P4 remote write", "P4 line protocol again");
    List<IngestLoad> ingest = List.of(workloads.p4LineProtocol, workloads.synthetic, workloads.p4RemoteWrite,
        workloads.p4Again);
    List<String> keys = List.of("p4", "synthetic", "remote", "again");
    CategoryChart throughput = new CategoryChartBuilder().width(900).height(500).title("Write throughput")
        .xAxisTitle("load").yAxisTitle("values/s (millions)").build();
    for (PeerRun run : runs) {
      List<Double> rates = new ArrayList<>();
      for (int i = 0; i < keys.size(); i++) {
        rates.add(run.loads.get(keys.get(i)).outcome().valuesPerSecond(ingest.get(i).values()) / 1e6);
      }
      throughput.addSeries(run.name, loads, rates);
    }
    BitmapEncoder.saveBitmap(throughput, dir.resolve(prefix + "-ingest").toString(), BitmapEncoder.BitmapFormat.PNG);

    for (double q : new double[] {0.5, 0.99}) {
      String label = q == 0.5 ? "p50" : "p99";
      List<String> groups = new ArrayList<>(runs.get(0).latencies.nanos().keySet());
      CategoryChart latency = new CategoryChartBuilder().width(1400).height(550).title("Query latency, " + label)
          .xAxisTitle("query, range").yAxisTitle("ms").build();
      latency.getStyler().setXAxisLabelRotation(45);
      for (PeerRun run : runs) {
        List<Double> values = new ArrayList<>();
        for (String group : groups) {
          values.add(QueryMix.percentile(run.latencies.nanos().get(group), q));
        }
        latency.addSeries(run.name, groups, values);
      }
      BitmapEncoder.saveBitmap(latency, dir.resolve(prefix + "-latency-" + label).toString(),
          BitmapEncoder.BitmapFormat.PNG);
    }
  }
}
