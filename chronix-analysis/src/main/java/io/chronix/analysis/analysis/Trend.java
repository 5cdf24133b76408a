package io.chronix.analysis.analysis;

import io.chronix.analysis.Analysis;
import io.chronix.analysis.AnalysisResult;
import io.chronix.analysis.References;
import io.chronix.core.series.Points;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.math3.stat.regression.SimpleRegression;

/**
 * trend: does the series rise? Answered by the slope of a least-squares line through the values
 * over time in seconds. Time is measured from the first point, because epoch seconds (around 1e9)
 * would cost the regression most of its precision; the intercept is therefore the fitted value at
 * the first timestamp. NaN values are left out.
 */
public record Trend() implements Analysis {

  @Override
  public String name() {
    return "trend";
  }

  @Override
  public List<String> arguments() {
    return List.of();
  }

  @Override
  public AnalysisResult apply(Points series, References references) {
    SimpleRegression regression = new SimpleRegression();
    long start = series.isEmpty() ? 0 : series.timestamp(0);
    for (int i = 0; i < series.size(); i++) {
      if (!Double.isNaN(series.value(i))) {
        regression.addData((series.timestamp(i) - start) / 1e9, series.value(i));
      }
    }
    double slope = regression.getSlope();
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("slope", slope);
    details.put("intercept", regression.getIntercept());
    // where the intercept lies, so that a client can draw the line: the first timestamp, epoch ms
    details.put("origin", Math.floorDiv(start, 1_000_000L));
    details.put("r2", regression.getRSquare());
    details.put("points", regression.getN());
    return new AnalysisResult(slope > 0, details);
  }
}
