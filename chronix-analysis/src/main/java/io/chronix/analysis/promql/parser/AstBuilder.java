package io.chronix.analysis.promql.parser;

import io.chronix.analysis.promql.ast.AggregateExpr;
import io.chronix.analysis.promql.ast.AggregateOp;
import io.chronix.analysis.promql.ast.AtModifier;
import io.chronix.analysis.promql.ast.BinaryExpr;
import io.chronix.analysis.promql.ast.BinaryOp;
import io.chronix.analysis.promql.ast.Call;
import io.chronix.analysis.promql.ast.Expr;
import io.chronix.analysis.promql.ast.FunctionSignature;
import io.chronix.analysis.promql.ast.Functions;
import io.chronix.analysis.promql.ast.MatrixSelector;
import io.chronix.analysis.promql.ast.NumberLiteral;
import io.chronix.analysis.promql.ast.ParenExpr;
import io.chronix.analysis.promql.ast.Position;
import io.chronix.analysis.promql.ast.StringLiteral;
import io.chronix.analysis.promql.ast.SubqueryExpr;
import io.chronix.analysis.promql.ast.UnaryExpr;
import io.chronix.analysis.promql.ast.ValueType;
import io.chronix.analysis.promql.ast.VectorMatching;
import io.chronix.analysis.promql.ast.VectorSelector;
import io.chronix.analysis.promql.model.LabelMatcher;
import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.series.PrometheusNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.tree.TerminalNode;

/**
 * Builds the syntax tree from ANTLR's parse tree and checks it as Prometheus' parser does
 * (argument types, modifiers, matchers), with Prometheus' wording in the messages.
 */
final class AstBuilder extends PromQLParserBaseVisitor<Expr> {

  private final String query;

  AstBuilder(String query) {
    this.query = query;
  }

  ParseException error(Position position, String problem) {
    return new ParseException(query, position, problem);
  }

  private static Position positionOf(ParserRuleContext context) {
    Token stop = context.getStop() == null ? context.getStart() : context.getStop();
    return new Position(context.getStart().getStartIndex(), Math.max(context.getStart().getStartIndex(), stop.getStopIndex() + 1));
  }

  private static Position positionOf(Token token) {
    return new Position(token.getStartIndex(), token.getStopIndex() + 1);
  }

  @Override
  public Expr visitQuery(PromQLParser.QueryContext context) {
    return visit(context.expr());
  }

  @Override
  public Expr visitSelectorOnly(PromQLParser.SelectorOnlyContext context) {
    return visit(context.vectorSelector());
  }

  @Override
  public Expr visitParen(PromQLParser.ParenContext context) {
    return new ParenExpr(visit(context.expr()), positionOf(context));
  }

  @Override
  public Expr visitNumber(PromQLParser.NumberContext context) {
    return new NumberLiteral(number(context.NUMBER().getSymbol()), positionOf(context));
  }

  @Override
  public Expr visitDurationNumber(PromQLParser.DurationNumberContext context) {
    return new NumberLiteral(durationMillis(context.DURATION().getSymbol()) / 1000.0, positionOf(context));
  }

  @Override
  public Expr visitString(PromQLParser.StringContext context) {
    return new StringLiteral(string(context.STRING().getSymbol()), positionOf(context));
  }

  @Override
  public Expr visitSelector(PromQLParser.SelectorContext context) {
    return visit(context.vectorSelector());
  }

  @Override
  public Expr visitVectorSelector(PromQLParser.VectorSelectorContext context) {
    String name = context.IDENTIFIER() == null ? null : context.IDENTIFIER().getText();
    List<LabelMatcher> matchers = new ArrayList<>();
    if (name != null) {
      matchers.add(LabelMatcher.equal(Labels.METRIC_NAME, name));
    }
    if (context.labelMatchers() != null) {
      for (PromQLParser.LabelMatcherContext matcher : context.labelMatchers().labelMatcher()) {
        LabelMatcher built = matcher(matcher);
        if (built.name().equals(Labels.METRIC_NAME) && built.type() == LabelMatcher.Type.EQUAL && name != null
            && (matcher.metric != null)) {
          throw error(positionOf(matcher), "metric name must not be set twice: \"" + name + "\" or \"" + built.value() + "\"");
        }
        if (matcher.metric != null) {
          name = built.value();
        }
        matchers.add(built);
      }
    }
    Position position = positionOf(context);
    boolean anyNonEmpty = false;
    for (LabelMatcher matcher : matchers) {
      anyNonEmpty |= !matcher.matchesEmpty();
    }
    if (!anyNonEmpty) {
      throw error(position, "vector selector must contain at least one non-empty matcher");
    }
    return new VectorSelector(name, matchers, 0, null, position);
  }

  private LabelMatcher matcher(PromQLParser.LabelMatcherContext context) {
    if (context.metric != null) {
      return LabelMatcher.equal(Labels.METRIC_NAME, string(context.metric));
    }
    // an escaped name (U__host_2e_name, as answers spell it) means the raw one
    String name = PrometheusNames.unescape(
        context.name.getType() == PromQLLexer.STRING ? string(context.name) : context.name.getText());
    String value = string(context.value);
    LabelMatcher.Type type;
    switch (context.op.getType()) {
      case PromQLLexer.EQL:
        type = LabelMatcher.Type.EQUAL;
        break;
      case PromQLLexer.NEQ:
        type = LabelMatcher.Type.NOT_EQUAL;
        break;
      case PromQLLexer.EQL_REGEX:
        type = LabelMatcher.Type.REGEX;
        break;
      default:
        type = LabelMatcher.Type.NOT_REGEX;
    }
    try {
      return LabelMatcher.of(type, name, value);
    } catch (IllegalArgumentException e) {
      throw error(positionOf(context), e.getMessage());
    }
  }

  @Override
  public Expr visitRangeOrSubquery(PromQLParser.RangeOrSubqueryContext context) {
    Expr inner = visit(context.expr());
    long range = durationValue(context.range);
    Position position = positionOf(context);
    if (range <= 0) {
      throw error(positionOf(context.range), "range must be greater than 0, got " + Durations.format(range));
    }
    if (context.COLON() == null) {
      if (!(inner instanceof VectorSelector)) {
        throw error(position, "ranges only allowed for vector selectors");
      }
      VectorSelector selector = (VectorSelector) inner;
      if (selector.offsetMillis() != 0) {
        throw error(position, "no offset modifiers allowed before range");
      }
      if (selector.at() != null) {
        throw error(position, "no @ modifiers allowed before range");
      }
      return new MatrixSelector(selector, range, position);
    }
    long step = context.step == null ? 0 : durationValue(context.step);
    if (context.step != null && step <= 0) {
      throw error(positionOf(context.step), "step must be greater than 0, got " + Durations.format(step));
    }
    if (inner.type() != ValueType.VECTOR && inner.type() != ValueType.SCALAR) {
      throw error(position, "subquery is only allowed on instant vector, got " + inner.type().description() + " instead");
    }
    return new SubqueryExpr(inner, range, step, 0, null, position);
  }

  @Override
  public Expr visitOffset(PromQLParser.OffsetContext context) {
    Expr inner = visit(context.expr());
    long offset = durationValue(context.durationValue());
    if (context.sign != null && context.sign.getType() == PromQLLexer.SUB) {
      offset = -offset;
    }
    Position position = positionOf(context);
    if (inner instanceof VectorSelector selector) {
      requireNoOffset(selector.offsetMillis(), position);
      return selector.withOffset(offset, position);
    }
    if (inner instanceof MatrixSelector matrix) {
      requireNoOffset(matrix.selector().offsetMillis(), position);
      return matrix.withSelector(matrix.selector().withOffset(offset, matrix.selector().position()), position);
    }
    if (inner instanceof SubqueryExpr subquery) {
      requireNoOffset(subquery.offsetMillis(), position);
      return subquery.withOffset(offset, position);
    }
    throw error(position, "offset modifier must be preceded by an instant vector selector or range vector selector or a subquery");
  }

  private void requireNoOffset(long present, Position position) {
    if (present != 0) {
      throw error(position, "offset may not be set multiple times");
    }
  }

  @Override
  public Expr visitAt(PromQLParser.AtContext context) {
    Expr inner = visit(context.expr());
    AtModifier at = atModifier(context.atTime());
    Position position = positionOf(context);
    if (inner instanceof VectorSelector selector) {
      requireNoAt(selector.at(), position);
      return selector.withAt(at, position);
    }
    if (inner instanceof MatrixSelector matrix) {
      requireNoAt(matrix.selector().at(), position);
      return matrix.withSelector(matrix.selector().withAt(at, matrix.selector().position()), position);
    }
    if (inner instanceof SubqueryExpr subquery) {
      requireNoAt(subquery.at(), position);
      return subquery.withAt(at, position);
    }
    throw error(position, "@ modifier must be preceded by an instant vector selector or range vector selector or a subquery");
  }

  private void requireNoAt(AtModifier present, Position position) {
    if (present != null) {
      throw error(position, "@ <timestamp> may not be set multiple times");
    }
  }

  private AtModifier atModifier(PromQLParser.AtTimeContext context) {
    if (context.IDENTIFIER() != null) {
      String name = context.IDENTIFIER().getText().toLowerCase(Locale.ROOT);
      if (name.equals("start")) {
        return AtModifier.start();
      }
      if (name.equals("end")) {
        return AtModifier.end();
      }
      throw error(positionOf(context), "unexpected \"" + context.IDENTIFIER().getText() + "\" in @, expected start() or end() or a timestamp");
    }
    double seconds = number(context.NUMBER().getSymbol());
    if (context.sign != null && context.sign.getType() == PromQLLexer.SUB) {
      seconds = -seconds;
    }
    double millis = Math.rint(seconds * 1000);
    if (Double.isNaN(millis) || Double.isInfinite(millis) || millis > Long.MAX_VALUE || millis < Long.MIN_VALUE) {
      throw error(positionOf(context), "timestamp out of bounds for @ modifier: " + seconds);
    }
    return AtModifier.at((long) millis);
  }

  @Override
  public Expr visitUnary(PromQLParser.UnaryContext context) {
    Expr inner = visit(context.expr());
    Position position = positionOf(context);
    if (inner.type() != ValueType.SCALAR && inner.type() != ValueType.VECTOR) {
      throw error(position, "unary expression only allowed on expressions of type scalar or instant vector, got \""
          + inner.type().description() + "\"");
    }
    boolean negate = context.sign.getType() == PromQLLexer.SUB;
    if (inner instanceof NumberLiteral number) {
      // folded as Prometheus does, so that "-1" stays a plain number literal
      return new NumberLiteral(negate ? -number.value() : number.value(), position);
    }
    return new UnaryExpr(negate, inner, position);
  }

  @Override
  public Expr visitBinary(PromQLParser.BinaryContext context) {
    Expr lhs = visit(context.lhs);
    Expr rhs = visit(context.rhs);
    BinaryOp op = binaryOp(context.op);
    Position position = positionOf(context);
    PromQLParser.BinModifierContext modifier = context.binModifier();
    boolean returnBool = modifier.BOOL() != null;
    boolean hasMatching = modifier.matching != null;

    for (Expr side : List.of(lhs, rhs)) {
      if (side.type() != ValueType.SCALAR && side.type() != ValueType.VECTOR) {
        throw error(position, "binary expression must contain only scalar and instant vector types");
      }
    }
    boolean bothVectors = lhs.type() == ValueType.VECTOR && rhs.type() == ValueType.VECTOR;
    if (returnBool && !op.isComparison()) {
      throw error(position, "bool modifier can only be used on comparison operators");
    }
    if (op.isComparison() && !returnBool && lhs.type() == ValueType.SCALAR && rhs.type() == ValueType.SCALAR) {
      throw error(position, "comparisons between scalars must use BOOL modifier");
    }
    if (op.isSetOperator() && !bothVectors) {
      throw error(position, "set operator \"" + op.text() + "\" not allowed in binary scalar expression");
    }
    if (hasMatching && !bothVectors) {
      throw error(position, "vector matching only allowed between instant vectors");
    }
    VectorMatching matching = null;
    if (bothVectors) {
      VectorMatching.Cardinality cardinality = op.isSetOperator()
          ? VectorMatching.Cardinality.MANY_TO_MANY : VectorMatching.Cardinality.ONE_TO_ONE;
      List<String> labels = List.of();
      List<String> include = List.of();
      boolean on = false;
      if (hasMatching) {
        on = modifier.matching.getType() == PromQLLexer.ON;
        labels = labelList(modifier.labelList(0));
        if (modifier.side != null) {
          if (op.isSetOperator()) {
            throw error(position, "no grouping allowed for \"" + op.text() + "\" operation");
          }
          cardinality = modifier.side.getType() == PromQLLexer.GROUP_LEFT
              ? VectorMatching.Cardinality.MANY_TO_ONE : VectorMatching.Cardinality.ONE_TO_MANY;
          include = modifier.include == null ? List.of() : labelList(modifier.include);
          if (on) {
            for (String label : include) {
              if (labels.contains(label)) {
                throw error(position, "label \"" + label + "\" must not occur in ON and GROUP clause at once");
              }
            }
          }
        }
      }
      matching = new VectorMatching(cardinality, labels, on, include);
    }
    return new BinaryExpr(op, lhs, rhs, matching, returnBool, position);
  }

  private static BinaryOp binaryOp(Token op) {
    switch (op.getType()) {
      case PromQLLexer.ADD:
        return BinaryOp.ADD;
      case PromQLLexer.SUB:
        return BinaryOp.SUB;
      case PromQLLexer.MUL:
        return BinaryOp.MUL;
      case PromQLLexer.DIV:
        return BinaryOp.DIV;
      case PromQLLexer.MOD:
        return BinaryOp.MOD;
      case PromQLLexer.POW:
        return BinaryOp.POW;
      case PromQLLexer.ATAN2:
        return BinaryOp.ATAN2;
      case PromQLLexer.EQLC:
        return BinaryOp.EQLC;
      case PromQLLexer.NEQ:
        return BinaryOp.NEQ;
      case PromQLLexer.GTR:
        return BinaryOp.GTR;
      case PromQLLexer.LSS:
        return BinaryOp.LSS;
      case PromQLLexer.GTE:
        return BinaryOp.GTE;
      case PromQLLexer.LTE:
        return BinaryOp.LTE;
      case PromQLLexer.AND:
        return BinaryOp.AND;
      case PromQLLexer.OR:
        return BinaryOp.OR;
      default:
        return BinaryOp.UNLESS;
    }
  }

  @Override
  public Expr visitAggregate(PromQLParser.AggregateContext context) {
    PromQLParser.AggregationContext aggregation = context.aggregation();
    AggregateOp op = AggregateOp.valueOf(aggregation.aggregateOp().getText().toUpperCase(Locale.ROOT));
    Position position = positionOf(context);
    List<Expr> args = parameters(aggregation.parameters());
    Expr param = null;
    Expr vector;
    if (op.paramType() != null) {
      if (args.size() != 2) {
        throw error(position, "wrong number of arguments for aggregate expression provided, expected 2, got " + args.size());
      }
      param = args.get(0);
      vector = args.get(1);
      if (param.type() != op.paramType()) {
        throw error(param.position(), "expected type " + op.paramType().description() + " in aggregation parameter, got "
            + param.type().description());
      }
    } else {
      if (args.size() != 1) {
        throw error(position, "wrong number of arguments for aggregate expression provided, expected 1, got " + args.size());
      }
      vector = args.get(0);
    }
    if (vector.type() != ValueType.VECTOR) {
      throw error(vector.position(), "expected type instant vector in aggregation expression, got "
          + vector.type().description());
    }
    List<String> grouping = List.of();
    boolean without = false;
    if (aggregation.grouping() != null) {
      without = aggregation.grouping().WITHOUT() != null;
      grouping = labelList(aggregation.grouping().labelList());
    }
    return new AggregateExpr(op, vector, param, grouping, without, position);
  }

  @Override
  public Expr visitCall(PromQLParser.CallContext context) {
    PromQLParser.FunctionContext function = context.function();
    String name = function.IDENTIFIER().getText();
    Position position = positionOf(context);
    FunctionSignature signature = Functions.named(name)
        .orElseThrow(() -> error(positionOf(function.IDENTIFIER().getSymbol()), "unknown function with name \"" + name + "\""));
    List<Expr> args = parameters(function.parameters());
    int given = args.size();
    if (signature.maxArgs() < 0) {
      if (given < signature.minArgs()) {
        throw error(position, "expected at least " + signature.minArgs() + " argument(s) in call to \"" + name + "\", got " + given);
      }
    } else if (signature.variadic() > 0) {
      if (given < signature.minArgs() || given > signature.maxArgs()) {
        String expectation = given < signature.minArgs() ? "at least " + signature.minArgs() : "at most " + signature.maxArgs();
        throw error(position, "expected " + expectation + " argument(s) in call to \"" + name + "\", got " + given);
      }
    } else if (given != signature.argTypes().size()) {
      throw error(position, "expected " + signature.argTypes().size() + " argument(s) in call to \"" + name + "\", got " + given);
    }
    for (int i = 0; i < given; i++) {
      ValueType expected = signature.argType(i);
      Expr arg = args.get(i);
      if (arg.type() != expected) {
        throw error(arg.position(), "expected type " + expected.description() + " in call to function \"" + name
            + "\", got " + arg.type().description());
      }
    }
    return new Call(signature, args, position);
  }

  private List<Expr> parameters(PromQLParser.ParametersContext context) {
    List<Expr> args = new ArrayList<>();
    if (context != null) {
      for (PromQLParser.ExprContext expr : context.expr()) {
        args.add(visit(expr));
      }
    }
    return args;
  }

  private List<String> labelList(PromQLParser.LabelListContext context) {
    List<String> labels = new ArrayList<>();
    for (PromQLParser.LabelNameContext label : context.labelName()) {
      String name = label.STRING() != null ? string(label.STRING().getSymbol()) : label.getText();
      if (label.STRING() == null && !isLabelName(name)) {
        throw error(positionOf(label), "unexpected \"" + name + "\" in grouping opts, expected label");
      }
      labels.add(PrometheusNames.unescape(name));
    }
    return labels;
  }

  private static boolean isLabelName(String name) {
    if (name.isEmpty()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean valid = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && c >= '0' && c <= '9');
      if (!valid) {
        return false;
      }
    }
    return true;
  }

  private long durationValue(PromQLParser.DurationValueContext context) {
    if (context.DURATION() != null) {
      return durationMillis(context.DURATION().getSymbol());
    }
    double seconds = number(context.NUMBER().getSymbol());
    double millis = Math.rint(seconds * 1000);
    if (Double.isNaN(millis) || Double.isInfinite(millis) || Math.abs(millis) > Long.MAX_VALUE) {
      throw error(positionOf(context), "duration out of range: " + context.getText());
    }
    return (long) millis;
  }

  private long durationMillis(Token token) {
    try {
      return Durations.parseMillis(token.getText());
    } catch (IllegalArgumentException e) {
      throw error(positionOf(token), e.getMessage());
    }
  }

  private double number(Token token) {
    String text = token.getText();
    String lower = text.toLowerCase(Locale.ROOT);
    if (lower.equals("inf")) {
      return Double.POSITIVE_INFINITY;
    }
    if (lower.equals("nan")) {
      return Double.NaN;
    }
    String digits = text.replace("_", "");
    try {
      if (lower.startsWith("0x")) {
        return Long.parseUnsignedLong(digits.substring(2), 16);
      }
      // Go's ParseInt with base 0, which Prometheus tries first: a leading 0 means octal
      if (digits.length() > 1 && digits.charAt(0) == '0' && digits.chars().allMatch(Character::isDigit)) {
        return Long.parseLong(digits, 8);
      }
      return Double.parseDouble(digits);
    } catch (NumberFormatException e) {
      throw error(positionOf(token), "bad number or duration syntax: \"" + text + "\"");
    }
  }

  private String string(Token token) {
    try {
      return StringLiterals.unquote(token.getText());
    } catch (IllegalArgumentException e) {
      throw error(positionOf(token), e.getMessage());
    }
  }

  @Override
  protected Expr aggregateResult(Expr aggregate, Expr nextResult) {
    return nextResult == null ? aggregate : nextResult;
  }

  @Override
  public Expr visitTerminal(TerminalNode node) {
    return null;
  }
}
