package io.chronix.analysis;

import io.chronix.core.series.Points;

/** Reduces a series to one number; an empty series yields NaN unless a number is meaningful. */
public non-sealed interface Aggregation extends ChronixFunction {

  double apply(Points series);
}
