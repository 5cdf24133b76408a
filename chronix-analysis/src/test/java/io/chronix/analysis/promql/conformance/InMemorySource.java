package io.chronix.analysis.promql.conformance;

import io.chronix.analysis.promql.engine.RawSeries;
import io.chronix.analysis.promql.engine.SeriesSource;
import io.chronix.analysis.promql.model.LabelMatcher;
import io.chronix.analysis.promql.model.Labels;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Series in memory, for engine tests without a store. */
public final class InMemorySource implements SeriesSource {

  private final Map<Labels, TreeMap<Long, Double>> series = new TreeMap<>();

  public void add(Labels labels, long[] timestamps, double[] values) {
    TreeMap<Long, Double> samples = series.computeIfAbsent(labels, l -> new TreeMap<>());
    for (int i = 0; i < timestamps.length; i++) {
      samples.put(timestamps[i], values[i]);
    }
  }

  public void clear() {
    series.clear();
  }

  @Override
  public List<RawSeries> select(List<LabelMatcher> matchers, long minTime, long maxTime) {
    List<RawSeries> result = new ArrayList<>();
    for (Map.Entry<Labels, TreeMap<Long, Double>> entry : series.entrySet()) {
      boolean all = true;
      for (LabelMatcher matcher : matchers) {
        all &= matcher.matches(entry.getKey());
      }
      if (!all) {
        continue;
      }
      Map<Long, Double> window = entry.getValue().subMap(minTime, true, maxTime, true);
      if (window.isEmpty()) {
        continue;
      }
      long[] t = new long[window.size()];
      double[] v = new double[window.size()];
      int i = 0;
      for (Map.Entry<Long, Double> sample : window.entrySet()) {
        t[i] = sample.getKey();
        v[i++] = sample.getValue();
      }
      result.add(new RawSeries(entry.getKey(), t, v, i));
    }
    result.sort(Comparator.comparing(RawSeries::labels));
    return result;
  }
}
