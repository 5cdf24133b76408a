package io.chronix.analysis;

import io.chronix.core.series.Points;

/** Turns a series into another series; the input is never modified, as callers may share it. */
public non-sealed interface Transformation extends ChronixFunction {

  Points apply(Points series);
}
