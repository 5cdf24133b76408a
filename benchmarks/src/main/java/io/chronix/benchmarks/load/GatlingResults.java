package io.chronix.benchmarks.load;

import io.gatling.charts.stats.GeneralStats;
import io.gatling.charts.stats.LogFileData;
import io.gatling.charts.stats.LogFileReader$;
import io.gatling.charts.stats.PercentilesVsTimePlot;
import io.gatling.commons.stats.Status;
import io.gatling.core.config.GatlingConfiguration$;
import io.gatling.core.stats.ErrorStats;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Per request type figures of a Gatling run, computed by Gatling's own reader of its log (the same
 * numbers its HTML report shows). Gatling 3.15 writes no JSON statistics beside the report any
 * more and its log is binary, so its reader is called directly; it is Scala, hence the
 * {@code Option}s.
 */
public final class GatlingResults {

  /** The figures of each request type, and when the first user started. */
  public record Run(Map<String, RequestStats> requests, long injectStartMillis) {}

  /**
   * Figures of one request type; latencies in ms over all its requests, failed ones included; the
   * seconds whose slowest answered request took longer than the dashboards' goal.
   */
  public record RequestStats(String name, long count, long failed, int p50, int p95, int p99, int max,
      List<String> errors, SlowSeconds slowSeconds) {}

  private static final int MAX_ERRORS = 3;

  private GatlingResults() {}

  /** Reads the run in {@code runDir} (a directory Gatling made in its results directory). */
  public static Run read(Path runDir, Iterable<String> requestNames) {
    LogFileData data = LogFileReader$.MODULE$
        .apply(runDir.getFileName().toString(), runDir.getParent(), GatlingConfiguration$.MODULE$.load())
        .read();
    Map<String, RequestStats> stats = new LinkedHashMap<>();
    for (String name : requestNames) {
      Option<GeneralStats> all = data.requestGeneralStats(Option.apply(name), Option.empty(), Option.empty());
      if (all.isEmpty()) {
        stats.put(name, new RequestStats(name, 0, 0, 0, 0, 0, 0, List.of(), SlowSeconds.none(0, (int) LoadReport.P99_GOAL_MS)));
        continue;
      }
      Option<GeneralStats> ko = data.requestGeneralStats(Option.apply(name), Option.empty(),
          Option.apply(Status.apply("KO")));
      GeneralStats s = all.get();
      stats.put(name, new RequestStats(name, s.count(), ko.isEmpty() ? 0 : ko.get().count(),
          percentile(s, 50), percentile(s, 95), percentile(s, 99), s.max(), errors(data, name), slowSeconds(data, name)));
    }
    return new Run(stats, data.runInfo().injectStart());
  }

  /** Gatling's most frequent error messages of the request type (shortened), with their counts. */
  private static List<String> errors(LogFileData data, String name) {
    List<String> errors = new ArrayList<>();
    for (ErrorStats error : CollectionConverters.asJava(data.errors(Option.apply(name), Option.empty()))) {
      if (errors.size() == MAX_ERRORS) {
        break;
      }
      String message = error.message().length() > 200 ? error.message().substring(0, 200) + "..." : error.message();
      errors.add(message + " (" + error.count() + ")");
    }
    return errors;
  }

  /** The seconds in which an answer of the request type took longer than the goal ({@link LoadReport#P99_GOAL_MS}). */
  private static SlowSeconds slowSeconds(LogFileData data, String name) {
    List<PercentilesVsTimePlot> plots = CollectionConverters.asJava(
        data.responseTimePercentilesOverTime(Status.apply("OK"), Option.apply(name), Option.empty()));
    int[] second = new int[plots.size()];
    int[] slowest = new int[plots.size()];
    for (int i = 0; i < plots.size(); i++) {
      PercentilesVsTimePlot plot = plots.get(i);
      second[i] = plot.time() / 1000; // ms from the run's start, a plot a second
      slowest[i] = plot.percentiles().isEmpty() ? 0 : plot.percentiles().get().percentile100();
    }
    return SlowSeconds.of(second, slowest, (int) LoadReport.P99_GOAL_MS, plots.size());
  }

  private static int percentile(GeneralStats stats, double rank) {
    return ((Number) stats.percentile().apply(rank)).intValue();
  }
}
