package io.chronix.analysis.analysis;

import io.chronix.analysis.Analysis;
import io.chronix.analysis.AnalysisResult;
import io.chronix.analysis.Functions;
import io.chronix.analysis.References;
import io.chronix.core.series.Points;

final class AnalysisTestSupport {

  private AnalysisTestSupport() {}

  static AnalysisResult analyse(String spec, Points series) {
    return analyse(spec, series, References.none());
  }

  static AnalysisResult analyse(String spec, Points series, References references) {
    return ((Analysis) Functions.parse(spec)).apply(series, references);
  }
}
