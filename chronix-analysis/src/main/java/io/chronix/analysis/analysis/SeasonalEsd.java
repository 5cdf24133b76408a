package io.chronix.analysis.analysis;

import io.chronix.analysis.Analysis;
import io.chronix.analysis.AnalysisResult;
import io.chronix.analysis.References;
import io.chronix.core.series.Points;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.commons.math3.stat.descriptive.rank.Median;

/**
 * seasonal: anomalies in a periodic series, in the spirit of Twitter's S-H-ESD (Vallis,
 * Hochenbaum and Kejariwal, 2014). A daily peak is not an anomaly, so the seasonal pattern is
 * removed first; the median per phase of the period stands in for STL's seasonal component
 * because it is not pulled by the very spikes that are sought. The residual
 * value - seasonal - median(value) then goes through the {@link GeneralizedEsd} test. (The phase
 * medians still contain the level, so the residual is offset by -median(value); the test measures
 * deviations from the residual's own median, so the offset does not change the verdict.)
 *
 * <p>The anomaly fraction is capped at one half: beyond that the "anomalies" would be the normal
 * behaviour and the median they are measured from would itself be anomalous.
 *
 * <p>Fewer than two full periods give no estimate of the seasonal pattern; such a series does not
 * match, and the details say why. NaN values keep their phase but take no part in the estimates.
 */
public record SeasonalEsd(
    int period, double alpha, double maxAnomalyFraction, List<String> arguments)
    implements Analysis {

  public SeasonalEsd {
    if (period < 1 || !(alpha > 0 && alpha < 1)
        || !(maxAnomalyFraction > 0 && maxAnomalyFraction <= 0.5)) {
      throw new IllegalArgumentException("need period >= 1, alpha in (0,1) and fraction in"
          + " (0,0.5], got " + period + ", " + alpha + ", " + maxAnomalyFraction);
    }
    arguments = List.copyOf(arguments);
  }

  @Override
  public String name() {
    return "seasonal";
  }

  @Override
  public AnalysisResult apply(Points series, References references) {
    Map<String, Object> details = new LinkedHashMap<>();
    int size = series.size();
    if (size < 2L * period) {
      details.put("anomalies", 0L);
      details.put("reason", "needs at least 2 periods (" + 2L * period + " points), got " + size);
      return new AnalysisResult(false, details);
    }
    int[] positions = nonNaNPositions(series);
    double[] residual = residual(series, positions);
    int maxAnomalies = (int) Math.floor(positions.length * maxAnomalyFraction);
    int[] anomalies = GeneralizedEsd.anomalies(residual, maxAnomalies, alpha);
    details.put("anomalies", (long) anomalies.length);
    details.put("maxAnomalies", (long) maxAnomalies);
    if (anomalies.length > 0) {
      int first = positions[Arrays.stream(anomalies).min().getAsInt()];
      details.put("firstAnomalyIndex", (long) first);
      details.put("firstAnomalyTimestamp", series.timestamp(first));
    }
    return new AnalysisResult(anomalies.length > 0, details);
  }

  private static int[] nonNaNPositions(Points series) {
    return IntStream.range(0, series.size()).filter(i -> !Double.isNaN(series.value(i))).toArray();
  }

  /** The residual at each non-NaN position, in the order of {@code positions}. */
  private double[] residual(Points series, int[] positions) {
    double[] seasonal = new double[period];
    for (int phase = 0; phase < period; phase++) {
      int wanted = phase;
      double[] phaseValues = Arrays.stream(positions)
          .filter(i -> i % period == wanted)
          .mapToDouble(series::value)
          .toArray();
      seasonal[phase] = phaseValues.length == 0 ? 0 : new Median().evaluate(phaseValues);
    }
    double[] values = Arrays.stream(positions).mapToDouble(series::value).toArray();
    double level = values.length == 0 ? 0 : new Median().evaluate(values);
    double[] residual = new double[positions.length];
    for (int k = 0; k < positions.length; k++) {
      residual[k] = values[k] - seasonal[positions[k] % period] - level;
    }
    return residual;
  }
}
