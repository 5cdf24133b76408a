package io.chronix.analysis.promql.ast;

public enum BinaryOp {
  ADD("+"), SUB("-"), MUL("*"), DIV("/"), MOD("%"), POW("^"), ATAN2("atan2"),
  EQLC("=="), NEQ("!="), GTR(">"), LSS("<"), GTE(">="), LTE("<="),
  AND("and"), OR("or"), UNLESS("unless");

  private final String text;

  BinaryOp(String text) {
    this.text = text;
  }

  public String text() {
    return text;
  }

  public boolean isComparison() {
    return this == EQLC || this == NEQ || this == GTR || this == LSS || this == GTE || this == LTE;
  }

  public boolean isSetOperator() {
    return this == AND || this == OR || this == UNLESS;
  }
}
