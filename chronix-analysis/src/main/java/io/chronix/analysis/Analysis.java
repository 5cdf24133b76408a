package io.chronix.analysis;

import io.chronix.core.series.Points;
import java.util.List;

/** Decides whether a series shows some behaviour, and reports the numbers behind the decision. */
public non-sealed interface Analysis extends ChronixFunction {

  AnalysisResult apply(Points series, References references);

  /**
   * Queries whose series this analysis compares against (fastdtw's reference query), else empty;
   * exposed so that the caller can run each reference query once for all series.
   */
  default List<String> referenceQueries() {
    return List.of();
  }
}
