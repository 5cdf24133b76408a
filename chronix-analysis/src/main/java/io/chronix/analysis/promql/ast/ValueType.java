package io.chronix.analysis.promql.ast;

/** What an expression evaluates to, named as Prometheus names it in messages and the API. */
public enum ValueType {
  SCALAR("scalar"),
  VECTOR("instant vector"),
  MATRIX("range vector"),
  STRING("string");

  private final String description;

  ValueType(String description) {
    this.description = description;
  }

  /** As in Prometheus' messages: "instant vector", "range vector", ... */
  public String description() {
    return description;
  }

  /** As in the HTTP API's resultType: "vector", "matrix", "scalar", "string". */
  public String resultType() {
    switch (this) {
      case VECTOR:
        return "vector";
      case MATRIX:
        return "matrix";
      case SCALAR:
        return "scalar";
      default:
        return "string";
    }
  }
}
