package io.chronix.analysis.promql.ast;

/** {@code selector[5m]}: every sample of each matching series in (t - range, t]. */
public record MatrixSelector(VectorSelector selector, long rangeMillis, Position position) implements Expr {

  @Override
  public ValueType type() {
    return ValueType.MATRIX;
  }

  public MatrixSelector withSelector(VectorSelector changed, Position extended) {
    return new MatrixSelector(changed, rangeMillis, extended);
  }
}
