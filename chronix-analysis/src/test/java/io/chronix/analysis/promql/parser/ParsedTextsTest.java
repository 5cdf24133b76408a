package io.chronix.analysis.promql.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.chronix.analysis.promql.ast.Expr;
import org.junit.jupiter.api.Test;

class ParsedTextsTest {

  /** The same text answers the same tree, which equals a fresh parse of it; another text its own. */
  @Test
  void aTextSentAgainAnswersItsTree() {
    String query = "sum by (dc) (rate(requests_total{job=\"node\"}[5m])) / 2";
    Expr first = PromQlParser.parse(query);
    assertSame(first, PromQlParser.parse(query));
    assertEquals(first, PromQlParser.parse(new StringBuilder(query).toString()));
    assertNotSame(first, PromQlParser.parse(query + " "));
    assertSame(PromQlParser.parseSelector("up{job=\"a\"}"), PromQlParser.parseSelector("up{job=\"a\"}"));
  }

  /** A text that does not parse is asked of the parser each time, with its error. */
  @Test
  void aTextThatDoesNotParseFailsEveryTime() {
    ParseException first = assertThrows(ParseException.class, () -> PromQlParser.parse("sum(rate(x[5m])"));
    ParseException again = assertThrows(ParseException.class, () -> PromQlParser.parse("sum(rate(x[5m])"));
    assertEquals(first.getMessage(), again.getMessage());
  }

  /** The least recently asked text goes first, and long texts are not kept. */
  @Test
  void keepsTheMostRecentlyAskedUpToItsCapacity() {
    ParsedTexts<String> texts = new ParsedTexts<>(2);
    texts.put("a", "A");
    texts.put("b", "B");
    assertEquals("A", texts.get("a")); // now the most recent
    texts.put("c", "C");
    assertNull(texts.get("b"));
    assertEquals("A", texts.get("a"));
    assertEquals("C", texts.get("c"));
    String tooLong = "x".repeat(ParsedTexts.MAX_CHARS + 1);
    texts.put(tooLong, "X");
    assertNull(texts.get(tooLong));
    assertEquals("A", texts.get("a"));
  }
}
