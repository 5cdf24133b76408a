package io.chronix.analysis.analysis;

import io.chronix.analysis.Analysis;
import io.chronix.analysis.AnalysisResult;
import io.chronix.analysis.References;
import io.chronix.analysis.aggregation.Samples;
import io.chronix.core.series.Points;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * fastdtw: is the series shaped like a reference series? Dynamic time warping tolerates shifts
 * and stretches in time that a point-by-point comparison would punish. The warp distance grows
 * with the length of the alignment, so it is divided by the path length before it is compared
 * with the maximum cost, which makes one threshold usable for series of any length. Only the
 * values are compared, NaN values left out; the timestamps merely order them.
 */
public record FastDtw(String referenceQuery, int radius, double maxCost, List<String> arguments)
    implements Analysis {

  public FastDtw {
    if (referenceQuery.isBlank()) {
      throw new IllegalArgumentException("reference query must not be empty");
    }
    if (radius < 0 || !(maxCost >= 0)) {
      throw new IllegalArgumentException(
          "radius and max cost must not be negative, got " + radius + ", " + maxCost);
    }
    arguments = List.copyOf(arguments);
  }

  @Override
  public String name() {
    return "fastdtw";
  }

  @Override
  public List<String> referenceQueries() {
    return List.of(referenceQuery);
  }

  @Override
  public AnalysisResult apply(Points series, References references) {
    double[] values = Samples.withoutNaN(series);
    double[] reference = Samples.withoutNaN(references.resolve(referenceQuery));
    Map<String, Object> details = new LinkedHashMap<>();
    if (values.length == 0 || reference.length == 0) {
      details.put("reason", values.length == 0 ? "empty series" : "empty reference series");
      return new AnalysisResult(false, details);
    }
    WarpPath path = TimeWarping.fast(values, reference, radius);
    double normalized = path.distance() / path.length();
    details.put("distance", path.distance());
    details.put("normalizedDistance", normalized);
    details.put("pathLength", (long) path.length());
    return new AnalysisResult(normalized <= maxCost, details);
  }
}
