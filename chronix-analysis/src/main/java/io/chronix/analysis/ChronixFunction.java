package io.chronix.analysis;

import java.util.List;

/**
 * A function of the cf parameter. Sealed so that the evaluator can rely on exactly three kinds:
 * transformations change the series, aggregations reduce it to a number, analyses to a verdict.
 */
public sealed interface ChronixFunction permits Transformation, Aggregation, Analysis {

  /** The lower-case canonical name, the key of the function in {@link Functions}. */
  String name();

  /** The arguments as given in the query, trimmed, so that responses can echo the request. */
  List<String> arguments();
}
