package io.chronix.analysis.promql.engine;

import io.chronix.analysis.promql.model.Labels;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Collects the output series of an operation by label set. Two values for one label set at one
 * step are an error, as in Prometheus; values at different steps join into one series.
 */
final class VectorBuilder {

  static final String DUPLICATE = "vector cannot contain metrics with the same labelset";

  private final int steps;
  private final Map<Labels, StepSeries> series = new LinkedHashMap<>();

  VectorBuilder(int steps) {
    this.steps = steps;
  }

  void add(Labels labels, int step, double value) {
    StepSeries target = series.computeIfAbsent(labels, l -> new StepSeries(l, steps));
    if (target.has(step)) {
      throw PromQlException.execution(DUPLICATE);
    }
    target.set(step, value);
  }

  /** Adds every value of a series; an overlap with one of the same labels is an error. */
  void addAll(StepSeries added) {
    StepSeries present = series.get(added.labels);
    if (present == null) {
      series.put(added.labels, added);
      return;
    }
    for (int i = 0; i < steps; i++) {
      if (added.has(i)) {
        if (present.has(i)) {
          throw PromQlException.execution(DUPLICATE);
        }
        present.set(i, added.get(i));
      }
    }
  }

  boolean contains(Labels labels) {
    return series.containsKey(labels);
  }

  Value.Vector build() {
    ArrayList<StepSeries> result = new ArrayList<>(series.size());
    for (StepSeries s : series.values()) {
      if (!s.isEmpty()) {
        result.add(s);
      }
    }
    return new Value.Vector(result);
  }
}
