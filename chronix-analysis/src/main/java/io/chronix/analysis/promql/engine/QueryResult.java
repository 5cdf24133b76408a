package io.chronix.analysis.promql.engine;

import io.chronix.analysis.promql.model.Labels;
import java.util.List;

/**
 * The answer to a query with the warnings and infos collected on the way, and the names of the
 * rollup tiers it read ({@link TierPlan}).
 */
public record QueryResult(Data data, List<String> warnings, List<String> infos, List<String> tiers) {

  public QueryResult(Data data, List<String> warnings, List<String> infos) {
    this(data, warnings, infos, List.of());
  }

  /** What the query evaluated to, by Prometheus' result types. */
  public sealed interface Data permits Scalar, Text, Vector, Matrix {
    /** "scalar", "string", "vector" or "matrix", as the API's resultType. */
    String resultType();
  }

  public record Scalar(long time, double value) implements Data {
    @Override
    public String resultType() {
      return "scalar";
    }
  }

  public record Text(long time, String value) implements Data {
    @Override
    public String resultType() {
      return "string";
    }
  }

  /** An instant vector: one sample per series, all at {@code time}. */
  public record Vector(long time, List<Sample> samples) implements Data {
    @Override
    public String resultType() {
      return "vector";
    }
  }

  public record Sample(Labels labels, double value) {}

  /** Series with their points, ordered by labels. */
  public record Matrix(List<Series> series) implements Data {
    @Override
    public String resultType() {
      return "matrix";
    }
  }

  /** Points of one series: millisecond timestamps and values, the first {@code size} entries. */
  public record Series(Labels labels, long[] timestamps, double[] values, int size) {}
}
