package io.chronix.analysis.transformation;

import io.chronix.analysis.Transformation;
import io.chronix.core.series.Points;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * top and bottom: the points with the largest or smallest values. They are returned in time order
 * rather than by rank, because the result is still a series that gets plotted; among equal values
 * the earlier point wins. NaN values have no rank and are never selected.
 */
public record Extremes(String name, int count, List<String> arguments) implements Transformation {

  public Extremes {
    if (!name.equals("top") && !name.equals("bottom")) {
      throw new IllegalArgumentException("name must be top or bottom, got " + name);
    }
    if (count < 1) {
      throw new IllegalArgumentException("count must be at least 1, got " + count);
    }
    arguments = List.copyOf(arguments);
  }

  @Override
  public Points apply(Points series) {
    Integer[] candidates = new Integer[series.size()];
    int size = 0;
    for (int i = 0; i < series.size(); i++) {
      if (!Double.isNaN(series.value(i))) {
        candidates[size++] = i;
      }
    }
    Comparator<Integer> byValue = Comparator.comparingDouble(series::value);
    Comparator<Integer> rank = name.equals("top") ? byValue.reversed() : byValue;
    // stable sort on indices in time order: ties keep the earlier point first
    Arrays.sort(candidates, 0, size, rank);
    int[] chosen = new int[Math.min(count, size)];
    for (int i = 0; i < chosen.length; i++) {
      chosen[i] = candidates[i];
    }
    Arrays.sort(chosen);
    Points result = new Points(chosen.length);
    for (int index : chosen) {
      result.add(series.timestamp(index), series.value(index));
    }
    return result;
  }
}
