package io.chronix.analysis;

import java.util.List;
import java.util.Map;

/**
 * The outcome of one aggregation or analysis on one series. Both kinds share one shape so that
 * the response writer can emit them in the order the user asked for them. An aggregation of an
 * array series has one value an element ({@code elements}) instead of {@code value}.
 */
public record FunctionValue(
    String name, List<String> arguments, Double value, List<Double> elements, Boolean matches,
    Map<String, Object> details) {

  public static FunctionValue aggregated(Aggregation aggregation, double value) {
    return new FunctionValue(aggregation.name(), aggregation.arguments(), value, null, null, Map.of());
  }

  public static FunctionValue elementWise(Aggregation aggregation, List<Double> elements) {
    return new FunctionValue(aggregation.name(), aggregation.arguments(), null, List.copyOf(elements), null, Map.of());
  }

  public static FunctionValue analysed(Analysis analysis, AnalysisResult result) {
    return new FunctionValue(
        analysis.name(), analysis.arguments(), null, null, result.matches(), result.details());
  }
}
