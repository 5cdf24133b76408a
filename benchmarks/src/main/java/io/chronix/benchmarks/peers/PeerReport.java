package io.chronix.benchmarks.peers;

import io.chronix.benchmarks.MarkedSection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The comparison's three tables (write throughput, storage, query mix) as Markdown, written into
 * docs/benchmarks.md between markers of their own (a full run and {@code --quick} keep separate
 * sections), with the charts beside it under docs/benchmarks/.
 */
final class PeerReport {

  private static final Map<String, String> LOADS = Map.of("p4", "P4, line protocol (first load after start)",
      "synthetic", "10,000-series stream, line protocol", "remote", "P4, Prometheus remote write", "again",
      "P4, line protocol again (new series, after the loads above)");

  private final PeerComparison.Plan plan;
  private final Workloads workloads;
  private final QueryMix mix;
  private final List<PeerRun> runs;
  private final IngestRounds rounds;
  private final QueryRounds queryRounds;

  PeerReport(PeerComparison.Plan plan, Workloads workloads, QueryMix mix, List<PeerRun> runs, IngestRounds rounds,
      QueryRounds queryRounds) {
    this.plan = plan;
    this.workloads = workloads;
    this.mix = mix;
    this.runs = runs;
    this.rounds = rounds;
    this.queryRounds = queryRounds;
  }

  String markdown() {
    StringBuilder out = new StringBuilder();
    String suffix = plan.quick() ? " --quick" : "";
    out.append("```\nbenchmarks/run Peers").append(suffix).append("\n```\n\n");
    out.append(String.format(Locale.ROOT, "Run of %s on this machine (2 cores). Data: %s values of %d P4 series "
        + "(%,.1f MB of CSV), %,d values of the 10,000-series stream; %d client threads, %,d lines or samples a "
        + "request (the client warmed up against a sink that discards them before any server gets one); servers "
        + "one after the other, each on a fresh data directory (except in the rounds by turns). Versions: %s.%n%n",
        LocalDate.now(ZoneOffset.UTC), String.format(Locale.ROOT, "%,d", workloads.p4LineProtocol.values()),
        workloads.series.size(), workloads.p4LineProtocol.csvBytes() / 1e6, workloads.synthetic.values(), 2,
        Workloads.LINES_PER_REQUEST, versions()));

    out.append("#### Write throughput\n\n");
    out.append("Time to the acknowledgement of the last request; `flush` is the time of the flush asked for after "
        + "it (ours: `/flush`, buffers written and committed; VictoriaMetrics: `/internal/force_flush`; InfluxDB: "
        + "none needed). CPU seconds and peak resident memory of the server process during the load.\n\n");
    out.append("| load | server | values/s | MB/s of CSV | time (s) | flush (s) | CPU (s) | peak RSS (MB) | 429/503 retries | / VictoriaMetrics |\n");
    out.append("|---|---|---|---|---|---|---|---|---|---|\n");
    for (String load : List.of("p4", "synthetic", "remote", "again")) {
      IngestLoad ingest = ingestOf(load);
      double vmRate = runs.get(0).loads.get(load).outcome().valuesPerSecond(ingest.values());
      for (PeerRun run : runs) {
        PeerRun.Load result = run.loads.get(load);
        double rate = result.outcome().valuesPerSecond(ingest.values());
        double seconds = result.outcome().nanos() / 1e9;
        out.append(String.format(Locale.ROOT, "| %s | %s | %,.0f | %s | %.2f | %.2f | %.1f | %.0f | %d | %s |%n",
            LOADS.get(load), run.name, rate, ingest.csvBytes() > 0 ? String.format(Locale.ROOT, "%.1f",
                ingest.csvBytes() / 1e6 / seconds) : "-", seconds, result.flushNanos() / 1e9,
            result.cost().cpuSeconds(), result.cost().peakRssMb(), result.outcome().retries(),
            ratio(rate / vmRate)));
      }
    }

    if (rounds.rounds() > 0) {
      appendRounds(out);
    }

    out.append("\n#### Storage\n\nEverything under the data directory after P4's line-protocol load, the directory "
        + "left to settle (no change for " + plan.settleQuiet().toSeconds() + " s) and a clean stop.\n\n");
    out.append("| server | bytes | bytes/value | / VictoriaMetrics | split |\n|---|---|---|---|---|\n");
    for (PeerRun run : runs) {
      out.append(String.format(Locale.ROOT, "| %s | %,d | %.3f | %s | %s |%n", run.name, run.diskBytes,
          (double) run.diskBytes / workloads.p4LineProtocol.values(),
          ratio((double) run.diskBytes / runs.get(0).diskBytes), run.diskSplit));
    }

    out.append(String.format(Locale.ROOT, "%n#### Query mix%n%n%d random series (seeded, the same for all; spanning 4 hours at least, "
        + "none with a backslash in its name, which InfluxDB 1.6 keeps doubled) per range length, a random window of that length inside each; %d measured round%s after %d warm-up round%s "
        + "(in brackets: the median of the first, when a fresh JVM still compiles its query path), each query timed from sending to the parsed answer over a keep-alive connection. VictoriaMetrics: "
        + "`/api/v1/export` and `max_over_time`; InfluxDB: InfluxQL `SELECT value` and `max(value)`; ours: "
        + "`/solr/chronix/query` with `fl=points` and `cf=metric{max}`. Outlier and trend: ours server-side "
        + "(`cf=metric{outlier}`, `{trend}`), the peers' raw points fetched and the same analysis code run in "
        + "the client. `ping`: each server's liveness endpoint (VictoriaMetrics `/health`, InfluxDB and ours `/ping`), as often "
        + "as a query of each group: one HTTP round trip through this client, the floor under every query. Every answer "
        + "(point count, maximum, verdict) agrees with VictoriaMetrics' %s.%n%n",
        mix.perGroup(), plan.rounds(), plan.rounds() == 1 ? "" : "s", plan.warmUps(), plan.warmUps() == 1 ? "" : "s",
        mix.disagreements().isEmpty() ? "(checked)" : "except: " + mix.disagreements()));
    out.append("| query | " + String.join(" | ", runs.stream().map(r -> r.name + " p50 / p99 (first round p50), ms").toList())
        + " | ours / VictoriaMetrics (p50) |\n");
    out.append("|---|" + "---|".repeat(runs.size()) + "---|\n");
    for (String group : runs.get(0).latencies.nanos().keySet()) {
      out.append("| ").append(group);
      for (PeerRun run : runs) {
        long[] sorted = run.latencies.nanos().get(group);
        out.append(String.format(Locale.ROOT, " | %.2f / %.2f (%.2f)", QueryMix.percentile(sorted, 0.5),
            QueryMix.percentile(sorted, 0.99), QueryMix.percentile(run.latencies.firstRound().get(group), 0.5)));
      }
      out.append(" | ").append(ratio(QueryMix.percentile(runs.get(runs.size() - 1).latencies.nanos().get(group), 0.5)
          / QueryMix.percentile(runs.get(0).latencies.nanos().get(group), 0.5))).append(" |\n");
    }
    out.append("\nServer cost of the query phase: ");
    out.append(String.join("; ", runs.stream().map(r -> String.format(Locale.ROOT, "%s %.1f CPU s, peak RSS %.0f MB",
        r.name, r.queryCost.cpuSeconds(), r.queryCost.peakRssMb())).toList()));
    out.append(".\n");
    if (queryRounds.rounds() > 0) {
      out.append(queryRoundsTable(queryRounds, plan.warmUps()));
    }
    out.append("\n");
    String prefix = chartPrefix();
    out.append("![write throughput](benchmarks/").append(prefix).append("-ingest.png)\n");
    out.append("![query latency, median](benchmarks/").append(prefix).append("-latency-p50.png)\n");
    out.append("![query latency, p99](benchmarks/").append(prefix).append("-latency-p99.png)\n");
    return out.toString();
  }

  private void appendRounds(StringBuilder out) {
    out.append(String.format(Locale.ROOT, "%n#### Write throughput, %d rounds by turns%n%n", rounds.rounds()));
    out.append("Run before the passes above: the first three loads, each round on freshly started servers, one "
        + "after the other, the order reversed every round (first in each round: "
        + String.join(", ", rounds.firstInRound()) + "). Medians "
        + "over the rounds, the range in brackets; the last column: ours / VictoriaMetrics within each round.\n\n");
    out.append("| load | VictoriaMetrics values/s | Chronix values/s | CPU s, VictoriaMetrics / Chronix (medians) "
        + "| / VictoriaMetrics (medians) | / VictoriaMetrics, each round |\n|---|---|---|---|---|---|\n");
    for (String load : IngestRounds.LOADS) {
      IngestLoad ingest = ingestOf(load);
      double[] vm = rounds.valuesPerSecond("VictoriaMetrics", load, ingest);
      double[] ours = rounds.valuesPerSecond("Chronix", load, ingest);
      StringBuilder each = new StringBuilder();
      for (int r = 0; r < vm.length; r++) {
        each.append(r == 0 ? "" : ", ").append(ratio(ours[r] / vm[r]));
      }
      out.append(String.format(Locale.ROOT, "| %s | %s | %s | %.1f / %.1f | %s | %s |%n", LOADS.get(load),
          medianAndRange(vm), medianAndRange(ours), IngestRounds.median(rounds.cpuSeconds("VictoriaMetrics", load)),
          IngestRounds.median(rounds.cpuSeconds("Chronix", load)),
          ratio(IngestRounds.median(ours) / IngestRounds.median(vm)), each));
    }
  }

  /** The query mix by turns: each group's medians and ratio, and the rounds ours was at most the reference. */
  static String queryRoundsTable(QueryRounds queryRounds, int warmUps) {
    String ours = "Chronix";
    String reference = "VictoriaMetrics";
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "%n#### Query mix, %d rounds by turns%n%n", queryRounds.rounds()));
    out.append(String.format(Locale.ROOT, "Run after the passes above: VictoriaMetrics and ours each on a fresh data "
        + "directory with P4 loaded as above (flushed, the directory left to settle), then both kept running and "
        + "asked the same mix a whole round at a time by turns, the order reversed every round (%d warm-up rounds "
        + "each, then the measured ones; first in each measured round: %s). p50 and p99 over all measured queries "
        + "of a group; the last column: the measured rounds in which the group's queries took ours at most as "
        + "long in all as VictoriaMetrics.%n%n", warmUps, String.join(", ", queryRounds.firstInRound())));
    out.append("| query | VictoriaMetrics p50 / p99, ms | Chronix p50 / p99, ms | ours / VictoriaMetrics (p50) "
        + "| rounds ours at most VictoriaMetrics |\n|---|---|---|---|---|\n");
    QueryMix.Latencies theirs = queryRounds.latencies(reference);
    QueryMix.Latencies mine = queryRounds.latencies(ours);
    for (String group : theirs.nanos().keySet()) {
      long[] a = theirs.nanos().get(group);
      long[] b = mine.nanos().get(group);
      out.append(String.format(Locale.ROOT, "| %s | %.2f / %.2f | %.2f / %.2f | %s | %d of %d |%n", group,
          QueryMix.percentile(a, 0.5), QueryMix.percentile(a, 0.99), QueryMix.percentile(b, 0.5),
          QueryMix.percentile(b, 0.99), ratio(QueryMix.percentile(b, 0.5) / QueryMix.percentile(a, 0.5)),
          queryRounds.roundsAtMost(ours, reference, group), queryRounds.rounds()));
    }
    out.append(String.format(Locale.ROOT, "%nServer CPU over the rounds, its idle turns included: VictoriaMetrics "
        + "%.1f s, Chronix %.1f s.%n", queryRounds.cost(reference).cpuSeconds(), queryRounds.cost(ours).cpuSeconds()));
    return out.toString();
  }

  private static String medianAndRange(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return String.format(Locale.ROOT, "%,.0f (%,.0f-%,.0f)", IngestRounds.median(values), sorted[0],
        sorted[sorted.length - 1]);
  }

  private IngestLoad ingestOf(String load) {
    return switch (load) {
      case "p4" -> workloads.p4LineProtocol;
      case "synthetic" -> workloads.synthetic;
      case "again" -> workloads.p4Again;
      default -> workloads.p4RemoteWrite;
    };
  }

  /** Replaces (or appends) this run's section of docs/benchmarks.md and writes the charts. */
  void write(Path docs) throws IOException {
    Path charts = docs.resolve("benchmarks");
    Files.createDirectories(charts);
    PeerCharts.write(runs, workloads, charts, chartPrefix());
    String begin = "<!-- " + chartPrefix() + ": written by benchmarks/run Peers" + (plan.quick() ? " --quick" : "")
        + " -->\n";
    String heading = plan.quick() ? "## Peers, quick run (performance issue)\n\n"
        : "## Peers: VictoriaMetrics, InfluxDB and ours (performance issue)\n\n";
    MarkedSection.write(docs.resolve("benchmarks.md"), begin, "<!-- end of " + chartPrefix() + " -->\n", markdown(),
        heading);
  }

  private String chartPrefix() {
    return plan.quick() ? "peers-quick" : "peers";
  }

  private String versions() {
    return String.join("; ", runs.stream().map(r -> r.name + " " + r.version).toList());
  }

  private static String ratio(double value) {
    return String.format(Locale.ROOT, "%.2f", value);
  }
}
