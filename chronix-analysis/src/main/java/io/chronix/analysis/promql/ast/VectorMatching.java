package io.chronix.analysis.promql.ast;

import java.util.List;

/**
 * How the series of two vectors pair up: on the listed labels ({@code on}) or on all but them
 * ({@code ignoring}, the default with an empty list); {@code include} are the labels group_left or
 * group_right copy from the "one" side.
 */
public record VectorMatching(Cardinality cardinality, List<String> labels, boolean on, List<String> include) {

  public enum Cardinality { ONE_TO_ONE, MANY_TO_ONE, ONE_TO_MANY, MANY_TO_MANY }

  public VectorMatching {
    labels = List.copyOf(labels);
    include = List.copyOf(include);
  }
}
