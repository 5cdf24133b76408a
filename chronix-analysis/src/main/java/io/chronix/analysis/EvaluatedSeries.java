package io.chronix.analysis;

import io.chronix.core.series.Points;
import java.util.List;

/** A series after its transformations, with the values of its aggregations and analyses. */
public record EvaluatedSeries(Points points, List<FunctionValue> values) {}
