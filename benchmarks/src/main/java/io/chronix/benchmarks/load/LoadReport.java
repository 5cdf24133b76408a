package io.chronix.benchmarks.load;

import io.chronix.benchmarks.load.GatlingResults.RequestStats;
import io.chronix.benchmarks.load.ServerSampler.Sample;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The run as Markdown for docs/benchmarks.md, and the verdict against the performance issue's
 * goals: dashboard p99 under 10 ms while the ingest runs, no failed request, no growth; and
 * whether the ingest got its 180,000 points/s at all, since the other goals mean little without.
 * Rates are per second of the configured injection time, which is what the load promised.
 */
public final class LoadReport {

  static final double P99_GOAL_MS = 10;

  private final Map<String, RequestStats> requests;
  private final ServerTrend server;
  private final long seconds;
  private final ServerDurations durations;

  public LoadReport(GatlingResults.Run run, List<Sample> samples, ServerDurations durations, long seconds) {
    this.requests = run.requests();
    this.server = new ServerTrend(samples, run.injectStartMillis(), seconds);
    this.durations = durations;
    this.seconds = seconds;
  }

  public String markdown() {
    StringBuilder out = new StringBuilder();
    out.append("| request | sent | ok/s | points/s | answers with data | p50 ms | p95 ms | p99 ms | max ms | errors |")
        .append('\n');
    out.append("|---|---|---|---|---|---|---|---|---|---|\n");
    for (RequestStats r : requests.values()) {
      boolean write = r.name().equals(LoadShape.WRITE);
      String points = write ? String.format(Locale.ROOT, "%,.0f", writtenPointsPerSecond()) : "";
      String withData = write ? "" : String.format(Locale.ROOT, "%,d", Answers.withData(r.name()));
      out.append(String.format(Locale.ROOT, "| %s | %,d | %.1f | %s | %s | %d | %d | %d | %d | %,d |%n", r.name(),
          r.count(), (double) (r.count() - r.failed()) / seconds, points, withData, r.p50(), r.p95(), r.p99(),
          r.max(), r.failed()));
    }
    out.append("\nsent: requests started; ok/s and points/s: answered as expected (204, 200) per second of the ")
        .append(seconds).append(" s of injection; answers with data: 200s holding at least one series;")
        .append(" latencies over all requests, failed ones included.\n");
    for (RequestStats r : requests.values()) {
      for (String error : r.errors()) {
        out.append("- failed ").append(r.name()).append(": ").append(error).append('\n');
      }
      Answers.unexpected(r.name()).entrySet().stream().limit(3).forEach(answer -> out.append("  - answer: ")
          .append(answer.getKey()).append(" (").append(answer.getValue()).append(")\n"));
    }
    out.append("\nSlow seconds (a request type's slowest answer in the second over the goal; spans that come back at")
        .append(" a steady period point at the server's periodic work):\n");
    for (RequestStats r : requests.values()) {
      out.append("- ").append(r.slowSeconds().describe(r.name())).append('\n');
    }
    if (!durations.isEmpty()) {
      out.append("\nThe same requests as the server timed them, from a request's headers to its handler's return,"
          + " since its start (/status polls under other):\n\n").append(durations.markdown());
    }
    out.append('\n').append(server.markdown());
    return out.toString();
  }

  public long seconds() {
    return seconds;
  }

  /**
   * Two servers under the same load, request type by request type: each latency percentile as ours
   * / theirs in ms, then both servers' worst dashboard p99 against the goal.
   */
  public static String ratios(LoadReport ours, LoadReport theirs) {
    StringBuilder out = new StringBuilder("| request | p50 ms | p95 ms | p99 ms | errors |\n|---|---|---|---|---|\n");
    for (RequestStats r : ours.requests.values()) {
      RequestStats t = theirs.requests.get(r.name());
      if (t != null) {
        out.append(String.format(Locale.ROOT, "| %s | %d / %d | %d / %d | %d / %d | %,d / %,d |%n", r.name(), r.p50(),
            t.p50(), r.p95(), t.p95(), r.p99(), t.p99(), r.failed(), t.failed()));
      }
    }
    return out.append(String.format(Locale.ROOT, "Worst dashboard p99 (goal under %.0f ms): ours %d ms, theirs %d ms.%n",
        P99_GOAL_MS, ours.worstDashboardP99(), theirs.worstDashboardP99())).toString();
  }

  private int worstDashboardP99() {
    return requests.values().stream().filter(r -> !r.name().equals(LoadShape.WRITE))
        .mapToInt(RequestStats::p99).max().orElse(0);
  }

  public String verdict() {
    int worstP99 = worstDashboardP99();
    long failed = requests.values().stream().mapToLong(RequestStats::failed).sum();
    boolean ingestHolds = writtenPointsPerSecond() >= 0.99 * LoadShape.POINTS_PER_SECOND;
    return String.format(Locale.ROOT, "- dashboard p99 < %.0f ms: %s (worst p99 %d ms)%n", P99_GOAL_MS,
            worstP99 < P99_GOAL_MS ? "holds" : "FAILS", worstP99)
        + String.format(Locale.ROOT, "- no errors: %s (%,d failed requests)%n", failed == 0 ? "holds" : "FAILS",
            failed)
        + String.format(Locale.ROOT, "- ingest at %,.0f points/s: %s (%,.0f acknowledged points/s)%n",
            LoadShape.POINTS_PER_SECOND, ingestHolds ? "holds" : "FAILS", writtenPointsPerSecond())
        + "- no growth (mean of the last third of the run against the middle third, 10% tolerance): "
        + server.growth() + "\n";
  }

  /** Points of acknowledged writes per second of injection. */
  private double writtenPointsPerSecond() {
    RequestStats writes = requests.get(LoadShape.WRITE);
    return writes == null ? 0 : (double) (writes.count() - writes.failed()) * LoadShape.POINTS_PER_WRITE / seconds;
  }
}
