package io.chronix.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class FunctionQueryTest {

  private static List<String> specs(List<ChronixFunction> functions) {
    return functions.stream()
        .map(f -> f.arguments().isEmpty()
            ? f.name() : f.name() + ":" + String.join(",", f.arguments()))
        .toList();
  }

  private static String error(String cf) {
    return assertThrows(FunctionQueryException.class, () -> FunctionQuery.parse(cf)).getMessage();
  }

  @Test
  void parsesFunctionsInTheGivenOrder() {
    FunctionQuery query =
        FunctionQuery.parse("metric{max;min;p:0.5;p:0.99;trend;movavg:10,minutes;scale:4}");
    assertEquals(
        List.of("max", "min", "p:0.5", "p:0.99", "trend", "movavg:10,minutes", "scale:4"),
        specs(query.functionsFor("metric")));
    assertFalse(query.isEmpty());
  }

  @Test
  void severalTypeBlocks() {
    FunctionQuery query = FunctionQuery.parse(" metric { MAX ; p : 0.9 } ; log{count} ");
    assertEquals(List.of("max", "p:0.9"), specs(query.functionsFor("metric")));
    assertEquals(List.of("count"), specs(query.functionsFor("log")));
    assertEquals(List.of(), query.functionsFor("trace"));
  }

  @Test
  void negativeArgumentsAndUnits() {
    FunctionQuery query = FunctionQuery.parse("metric{timeshift:-10,DAYS;add:-5;sub:-0.5}");
    assertEquals(List.of("timeshift:-10,DAYS", "add:-5", "sub:-0.5"),
        specs(query.functionsFor("metric")));
  }

  @Test
  void emptyParameterMeansNoFunctions() {
    assertTrue(FunctionQuery.parse("").isEmpty());
    assertTrue(FunctionQuery.parse(null).isEmpty());
    assertTrue(FunctionQuery.parse("  ").functionsFor("metric").isEmpty());
  }

  @Test
  void referenceQueriesOfAllAnalyses() {
    FunctionQuery query = FunctionQuery.parse(
        "metric{max;fastdtw:name:ref AND host:x,5,0.8};"
            + "other{fastdtw:{!term f=name}a,1,2;fastdtw:name:\"a;b\",1,2;min}");
    assertEquals(List.of("name:ref AND host:x", "{!term f=name}a", "name:\"a;b\""),
        query.referenceQueries());
    assertEquals(List.of("fastdtw", "fastdtw", "min"),
        query.functionsFor("other").stream().map(ChronixFunction::name).toList());
    assertEquals(List.of(), FunctionQuery.parse("metric{max}").referenceQueries());
  }

  @Test
  void syntaxErrorsAreReported() {
    assertTrue(error("metric{max").contains("unbalanced braces"), error("metric{max"));
    assertTrue(error("metric{max}}").contains("unbalanced braces"), error("metric{max}}"));
    assertTrue(error("metric{max;;min}").contains("empty function in block 'metric'"));
    assertTrue(error("{max}").contains("missing type"));
    assertTrue(error("max;min").contains("expected '{'"));
    assertEquals("unknown function 'maxx'", error("metric{maxx}"));
    assertEquals("p: needs 1 argument (quantile in (0,1]), got 0", error("metric{max;p}"));
  }
}
