package io.chronix.analysis.promql.parser;

import io.chronix.analysis.promql.ast.Expr;
import io.chronix.analysis.promql.ast.Position;
import io.chronix.analysis.promql.ast.VectorSelector;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.atn.PredictionMode;
import org.antlr.v4.runtime.misc.ParseCancellationException;

/** Parses PromQL text into a checked syntax tree; the one entry point of this package. */
public final class PromQlParser {

  /** Queries' and selectors' trees kept for their texts sent again (ParsedTexts). */
  private static final ParsedTexts<Expr> QUERIES = new ParsedTexts<>(256);
  private static final ParsedTexts<VectorSelector> SELECTORS = new ParsedTexts<>(256);

  private PromQlParser() {}

  /** @throws ParseException with the position and the problem */
  public static Expr parse(String query) {
    if (query == null || query.isBlank()) {
      throw new ParseException(query == null ? "" : query, Position.NONE, "no expression found in input");
    }
    Expr tree = QUERIES.get(query);
    if (tree == null) {
      tree = (Expr) twoStage(query, parser -> new AstBuilder(query).visit(parser.query()));
      QUERIES.put(query, tree);
    }
    return tree;
  }

  /** A lone vector selector, as {@code match[]} parameters give them. */
  public static VectorSelector parseSelector(String selector) {
    if (selector == null || selector.isBlank()) {
      throw new ParseException(selector == null ? "" : selector, Position.NONE, "no expression found in input");
    }
    VectorSelector tree = SELECTORS.get(selector);
    if (tree == null) {
      tree = (VectorSelector) twoStage(selector, parser -> new AstBuilder(selector).visit(parser.selectorOnly()));
      SELECTORS.put(selector, tree);
    }
    return tree;
  }

  /**
   * ANTLR's fast SLL prediction first; it may reject what full LL accepts, so a syntax error is
   * only final when LL finds it too (the usual two-stage use of ANTLR).
   */
  private static Object twoStage(String query, java.util.function.Function<PromQLParser, Object> rule) {
    try {
      return rule.apply(parser(query, PredictionMode.SLL));
    } catch (ParseCancellationException sll) {
      try {
        return rule.apply(parser(query, PredictionMode.LL));
      } catch (ParseCancellationException ll) {
        throw (ParseException) ll.getCause();
      }
    }
  }

  private static PromQLParser parser(String query, PredictionMode mode) {
    ThrowingListener listener = new ThrowingListener(query);
    PromQLLexer lexer = new PromQLLexer(CharStreams.fromString(query));
    lexer.removeErrorListeners();
    lexer.addErrorListener(listener);
    PromQLParser parser = new PromQLParser(new CommonTokenStream(lexer));
    parser.removeErrorListeners();
    parser.addErrorListener(listener);
    parser.getInterpreter().setPredictionMode(mode);
    return parser;
  }

  /** Turns the first syntax error into a ParseException with Prometheus-like wording. */
  private static final class ThrowingListener extends BaseErrorListener {
    private final String query;

    ThrowingListener(String query) {
      this.query = query;
    }

    @Override
    public void syntaxError(Recognizer<?, ?> recognizer, Object offendingSymbol, int line, int column, String msg,
        RecognitionException e) {
      Position position;
      String problem;
      if (offendingSymbol instanceof Token token) {
        position = token.getType() == Token.EOF
            ? new Position(query.length(), query.length())
            : new Position(token.getStartIndex(), token.getStopIndex() + 1);
        problem = "unexpected " + describe(token);
      } else {
        int offset = offsetOf(line, column);
        position = new Position(offset, offset + 1);
        problem = offset < query.length() ? "unexpected character: '" + query.charAt(offset) + "'" : "unexpected end of input";
      }
      throw new ParseCancellationException(new ParseException(query, position, problem));
    }

    private int offsetOf(int line, int column) {
      int offset = 0;
      for (int l = 1; l < line && offset < query.length(); offset++) {
        if (query.charAt(offset) == '\n') {
          l++;
        }
      }
      return Math.min(query.length(), offset + column);
    }

    private static String describe(Token token) {
      String text = token.getText();
      switch (token.getType()) {
        case Token.EOF:
          return "end of input";
        case PromQLLexer.ERROR_CHAR:
          return "character: '" + text + "'";
        case PromQLLexer.IDENTIFIER:
        case PromQLLexer.LABEL_NAME:
          return "identifier \"" + text + "\"";
        case PromQLLexer.NUMBER:
          return "number \"" + text + "\"";
        case PromQLLexer.DURATION:
          return "duration \"" + text + "\"";
        case PromQLLexer.STRING:
          return "string " + text;
        case PromQLLexer.LEFT_PAREN:
          return "left parenthesis '('";
        case PromQLLexer.RIGHT_PAREN:
          return "right parenthesis ')'";
        case PromQLLexer.LEFT_BRACE:
          return "left brace '{'";
        case PromQLLexer.RIGHT_BRACE:
          return "right brace '}'";
        case PromQLLexer.LEFT_BRACKET:
          return "left bracket '['";
        case PromQLLexer.RIGHT_BRACKET:
          return "right bracket ']'";
        case PromQLLexer.COMMA:
          return "\",\"";
        default:
          return "\"" + text + "\"";
      }
    }
  }
}
