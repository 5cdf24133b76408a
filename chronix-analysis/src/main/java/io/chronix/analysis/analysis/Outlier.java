package io.chronix.analysis.analysis;

import io.chronix.analysis.Analysis;
import io.chronix.analysis.AnalysisResult;
import io.chronix.analysis.References;
import io.chronix.analysis.aggregation.Quantiles;
import io.chronix.analysis.aggregation.Samples;
import io.chronix.core.series.Points;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * outlier: Tukey's fences. A value beyond 1.5 interquartile ranges outside the quartiles is an
 * outlier; quartiles are robust, so the outliers themselves barely move the fences. Quartiles use
 * Commons Math's default percentile estimation, like p:0.25 and p:0.75. NaN values are left out.
 */
public record Outlier() implements Analysis {

  @Override
  public String name() {
    return "outlier";
  }

  @Override
  public List<String> arguments() {
    return List.of();
  }

  @Override
  public AnalysisResult apply(Points series, References references) {
    double[] values = Samples.withoutNaN(series);
    Map<String, Object> details = new LinkedHashMap<>();
    if (values.length == 0) {
      details.put("outliers", 0L);
      return new AnalysisResult(false, details);
    }
    // quartiles of a sorted copy: the count below goes over the values in any order
    Quantiles quartiles = new Quantiles(values);
    double q1 = quartiles.percentile(25);
    double q3 = quartiles.percentile(75);
    double iqr = q3 - q1;
    double upper = q3 + 1.5 * iqr;
    double lower = q1 - 1.5 * iqr;
    long outliers = 0;
    for (double value : values) {
      if (value > upper || value < lower) {
        outliers++;
      }
    }
    details.put("q1", q1);
    details.put("q3", q3);
    details.put("iqr", iqr);
    details.put("upper", upper);
    details.put("lower", lower);
    details.put("outliers", outliers);
    return new AnalysisResult(outliers > 0, details);
  }
}
