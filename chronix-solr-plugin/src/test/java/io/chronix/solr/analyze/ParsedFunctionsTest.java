package io.chronix.solr.analyze;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.analysis.FunctionQuery;
import io.chronix.analysis.FunctionQueryException;
import org.junit.jupiter.api.Test;

/** A cf text is read once and its reading served again; errors are not kept; the set stays bounded. */
class ParsedFunctionsTest {

  @Test
  void aTextReadBeforeIsServedAsRead() {
    FunctionQuery first = ParsedFunctions.of("metric{max;p:0.99};log{count}");
    assertSame(first, ParsedFunctions.of("metric{max;p:0.99};log{count}"));
    assertEquals(FunctionQuery.parse("metric{max;p:0.99};log{count}").toString(), first.toString());
    assertNotSame(first, ParsedFunctions.of("metric{max;p:0.95};log{count}"));
  }

  @Test
  void aTextThatDoesNotReadFailsEachTime() {
    for (int i = 0; i < 2; i++) {
      assertThrows(FunctionQueryException.class, () -> ParsedFunctions.of("metric{nosuch}"));
    }
  }

  @Test
  void keepsABoundedSet() {
    for (int i = 0; i < 3 * ParsedFunctions.MAX_KEPT; i++) {
      ParsedFunctions.of("metric{p:0.5" + i + "}");
      assertTrue(ParsedFunctions.kept() <= ParsedFunctions.MAX_KEPT, ParsedFunctions.kept() + " kept");
    }
  }
}
