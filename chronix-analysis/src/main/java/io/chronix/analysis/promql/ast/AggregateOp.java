package io.chronix.analysis.promql.ast;

import java.util.Locale;

public enum AggregateOp {
  SUM, AVG, COUNT, MIN, MAX, GROUP, STDDEV, STDVAR, TOPK, BOTTOMK, COUNT_VALUES, QUANTILE, LIMITK, LIMIT_RATIO;

  public String text() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The type of the parameter in front of the vector, or null when the operator takes none. */
  public ValueType paramType() {
    switch (this) {
      case TOPK:
      case BOTTOMK:
      case QUANTILE:
      case LIMITK:
      case LIMIT_RATIO:
        return ValueType.SCALAR;
      case COUNT_VALUES:
        return ValueType.STRING;
      default:
        return null;
    }
  }
}
