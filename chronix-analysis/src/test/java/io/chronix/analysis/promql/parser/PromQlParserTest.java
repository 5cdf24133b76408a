package io.chronix.analysis.promql.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.analysis.promql.ast.AggregateExpr;
import io.chronix.analysis.promql.ast.AggregateOp;
import io.chronix.analysis.promql.ast.AtModifier;
import io.chronix.analysis.promql.ast.BinaryExpr;
import io.chronix.analysis.promql.ast.BinaryOp;
import io.chronix.analysis.promql.ast.Call;
import io.chronix.analysis.promql.ast.Expr;
import io.chronix.analysis.promql.ast.MatrixSelector;
import io.chronix.analysis.promql.ast.NumberLiteral;
import io.chronix.analysis.promql.ast.StringLiteral;
import io.chronix.analysis.promql.ast.SubqueryExpr;
import io.chronix.analysis.promql.ast.UnaryExpr;
import io.chronix.analysis.promql.ast.VectorMatching;
import io.chronix.analysis.promql.ast.VectorSelector;
import io.chronix.analysis.promql.model.LabelMatcher;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PromQlParserTest {

  private static double number(String query) {
    return ((NumberLiteral) PromQlParser.parse(query)).value();
  }

  @Test
  void numbersInEveryNotation() {
    assertEquals(12.34e6, number("12.34e6"));
    assertEquals(0.2, number(".2"));
    assertEquals(0.2, number("+0.2"));
    assertEquals(-2e-7, number("-0.2e-6"));
    assertEquals(2, number("2."));
    assertEquals(31, number("0x1F"));
    assertEquals(8, number("010"), "a leading 0 is octal, as Go's ParseInt reads it");
    assertEquals(1000, number("1_000"));
    assertEquals(Double.POSITIVE_INFINITY, number("inF"));
    assertEquals(Double.NEGATIVE_INFINITY, number("-Inf"));
    assertTrue(Double.isNaN(number("nan")));
    assertEquals(300, number("5m"), "a duration used as a number is seconds");
  }

  @Test
  void stringsUnquoteLikeGo() {
    assertEquals("a\"b\n", ((StringLiteral) PromQlParser.parse("\"a\\\"b\\n\"")).value());
    assertEquals("it's", ((StringLiteral) PromQlParser.parse("'it\\'s'")).value());
    assertEquals("raw\\n", ((StringLiteral) PromQlParser.parse("`raw\\n`")).value());
    assertEquals("AéB", ((StringLiteral) PromQlParser.parse("\"\\x41\\u00e9\\102\"")).value());
  }

  @Test
  void selectorWithMatchersOffsetAndAt() {
    VectorSelector selector = (VectorSelector) PromQlParser.parse(
        "http_requests_total{job=~\"api.*\", instance!=\"3\", on=\"x\"} offset 5m @ 100.5");
    assertEquals("http_requests_total", selector.name());
    assertEquals(4, selector.matchers().size());
    assertEquals(LabelMatcher.Type.REGEX, selector.matchers().get(1).type());
    assertEquals("on", selector.matchers().get(3).name(), "keywords are label names inside braces");
    assertEquals(300_000, selector.offsetMillis());
    assertEquals(AtModifier.at(100_500), selector.at());
  }

  @Test
  void quotedMetricNames() {
    VectorSelector selector = (VectorSelector) PromQlParser.parse("{\"servers.web1.cpu\", \"host.name\"=\"a\"}");
    assertEquals("servers.web1.cpu", selector.name());
    assertEquals("host.name", selector.matchers().get(1).name());
  }

  @Test
  void rangesSubqueriesAndModifiers() {
    Call rate = (Call) PromQlParser.parse("rate(foo[5m] offset -1h)");
    MatrixSelector matrix = (MatrixSelector) rate.args().get(0);
    assertEquals(300_000, matrix.rangeMillis());
    assertEquals(-3_600_000, matrix.selector().offsetMillis());

    SubqueryExpr subquery = (SubqueryExpr) PromQlParser.parse("rate(foo[1m])[1h:30s] @ end()");
    assertEquals(3_600_000, subquery.rangeMillis());
    assertEquals(30_000, subquery.stepMillis());
    assertEquals(AtModifier.Kind.END, subquery.at().kind());

    SubqueryExpr defaultStep = (SubqueryExpr) PromQlParser.parse("foo[1h:]");
    assertEquals(0, defaultStep.stepMillis());
    assertEquals(5_400_000, ((MatrixSelector) ((Call) PromQlParser.parse("sum_over_time(x[1h30m])")).args().get(0))
        .rangeMillis());
    assertEquals(90_000, ((MatrixSelector) ((Call) PromQlParser.parse("rate(x[90])")).args().get(0)).rangeMillis());
  }

  @Test
  void precedenceAsPrometheus() {
    // -2^2 is -(2^2); 2^3^2 is 2^(3^2)
    BinaryExpr pow = (BinaryExpr) ((UnaryExpr) PromQlParser.parse("-a^2")).expr();
    assertEquals(BinaryOp.POW, pow.op());
    BinaryExpr right = (BinaryExpr) PromQlParser.parse("a ^ b ^ c");
    assertInstanceOf(BinaryExpr.class, right.rhs());
    BinaryExpr sum = (BinaryExpr) PromQlParser.parse("a + b * c > bool d or e and f");
    assertEquals(BinaryOp.OR, sum.op());
    assertEquals(BinaryOp.AND, ((BinaryExpr) sum.rhs()).op());
    BinaryExpr comparison = (BinaryExpr) sum.lhs();
    assertEquals(BinaryOp.GTR, comparison.op());
    assertTrue(comparison.returnBool());
    assertEquals(BinaryOp.ADD, ((BinaryExpr) comparison.lhs()).op());
  }

  @Test
  void vectorMatching() {
    BinaryExpr expr = (BinaryExpr) PromQlParser.parse("a / ignoring(code) group_left(job, on) b");
    VectorMatching matching = expr.matching();
    assertEquals(VectorMatching.Cardinality.MANY_TO_ONE, matching.cardinality());
    assertEquals(List.of("code"), matching.labels());
    assertEquals(List.of("job", "on"), matching.include());
    BinaryExpr set = (BinaryExpr) PromQlParser.parse("a and on(x) b");
    assertEquals(VectorMatching.Cardinality.MANY_TO_MANY, set.matching().cardinality());
    assertTrue(set.matching().on());
  }

  @Test
  void aggregationsWithGroupingEitherSide() {
    AggregateExpr before = (AggregateExpr) PromQlParser.parse("sum by (job, group) (rate(x[5m]))");
    AggregateExpr after = (AggregateExpr) PromQlParser.parse("SUM(rate(x[5m])) BY (job, group)");
    assertEquals(before.grouping(), after.grouping());
    assertEquals(List.of("job", "group"), after.grouping());
    AggregateExpr topk = (AggregateExpr) PromQlParser.parse("topk without (instance) (3, x)");
    assertEquals(AggregateOp.TOPK, topk.op());
    assertTrue(topk.without());
    assertEquals(3, ((NumberLiteral) topk.param()).value());
    AggregateExpr countValues = (AggregateExpr) PromQlParser.parse("count_values(\"v\", x)");
    assertEquals("v", ((StringLiteral) countValues.param()).value());
  }

  @Test
  void chronixFunctions() {
    Call outlier = (Call) PromQlParser.parse("chronix_outlier(cpu_usage_idle{host=\"web1\"}[1h])");
    assertEquals("chronix_outlier", outlier.function().name());
    Call downsample = (Call) PromQlParser.parse("chronix_downsample(x[1d], 5m, \"max\")");
    assertEquals(3, downsample.args().size());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "sum(x|1:6: parse error: unexpected end of input",
      "foo{a=\"b\"|1:10: parse error: unexpected end of input",
      "rate(foo)|1:6: parse error: expected type range vector in call to function \"rate\", got instant vector",
      "rate(foo[5m], 1)|1:1: parse error: expected 1 argument(s) in call to \"rate\", got 2",
      "nosuch(foo)|1:1: parse error: unknown function with name \"nosuch\"",
      "1 > 2|1:1: parse error: comparisons between scalars must use BOOL modifier",
      "1 and 2|1:1: parse error: set operator \"and\" not allowed in binary scalar expression",
      "a + on(x) 1|1:1: parse error: vector matching only allowed between instant vectors",
      "(a + b)[5m]|1:1: parse error: ranges only allowed for vector selectors",
      "foo offset 5m [5m]|1:1: parse error: no offset modifiers allowed before range",
      "sum(x) offset 5m|1:1: parse error: offset modifier must be preceded by an instant vector selector or range vector selector or a subquery",
      "{a=\"\"}|1:1: parse error: vector selector must contain at least one non-empty matcher",
      "foo{a=~\"(\"}|1:5: parse error: invalid regular expression \"(\": Unclosed group",
      "a + b == )|1:10: parse error: unexpected right parenthesis ')'",
      "foo $ bar|1:5: parse error: unexpected character: '$'",
      "sum(rate(x[5m]), 1)|1:1: parse error: wrong number of arguments for aggregate expression provided, expected 1, got 2",
      "topk(\"a\", x)|1:6: parse error: expected type scalar in aggregation parameter, got string",
      "foo[5x]|1:6: parse error: unexpected character: 'x'",
      "-\"a\"|1:1: parse error: unary expression only allowed on expressions of type scalar or instant vector, got \"string\"",
      "a * on(x) group_left(x) b|1:1: parse error: label \"x\" must not occur in ON and GROUP clause at once",
  })
  void errorsNamePositionAndProblem(String query, String message) {
    ParseException error = assertThrows(ParseException.class, () -> PromQlParser.parse(query));
    assertEquals(message, error.getMessage());
  }

  @Test
  void emptyQuery() {
    assertEquals("1:1: parse error: no expression found in input",
        assertThrows(ParseException.class, () -> PromQlParser.parse("  ")).getMessage());
  }

  @Test
  void keywordsAsGroupingLabels() {
    AggregateExpr expr = (AggregateExpr) PromQlParser.parse("sum by (on, group, bool, offset) (x)");
    assertEquals(List.of("on", "group", "bool", "offset"), expr.grouping());
  }

  @Test
  void selectorOnly() {
    VectorSelector selector = PromQlParser.parseSelector("up{job=\"a\"}");
    assertEquals("up", selector.name());
    assertNull(selector.at());
    assertThrows(ParseException.class, () -> PromQlParser.parseSelector("rate(up[5m])"));
  }

  @Test
  void commentsAndNewlines() {
    Expr expr = PromQlParser.parse("sum( # the total\n  x\n)");
    assertInstanceOf(AggregateExpr.class, expr);
  }
}
