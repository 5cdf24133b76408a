package io.chronix.analysis.promql.engine;

import java.util.List;

/** What an expression evaluates to over a grid, as the evaluator passes it around. */
sealed interface Value permits Value.Scalar, Value.Vector, Value.Range, Value.Text {

  /** A number per step. */
  record Scalar(double[] values) implements Value {}

  /** An instant vector: series with a value at some steps. */
  record Vector(List<StepSeries> series) implements Value {}

  /** A range vector: raw samples per series (only at the top of an instant query). */
  record Range(List<RawSeries> series) implements Value {}

  record Text(String value) implements Value {}
}
