package io.chronix.analysis.analysis;

import static io.chronix.analysis.TestSeries.perSecond;
import static io.chronix.analysis.TestSeries.values;
import static io.chronix.analysis.analysis.AnalysisTestSupport.analyse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.analysis.AnalysisResult;
import io.chronix.analysis.FunctionQueryException;
import io.chronix.analysis.Functions;
import io.chronix.analysis.References;
import io.chronix.core.series.Points;
import java.util.List;
import org.junit.jupiter.api.Test;

class FastDtwTest {

  private static final String QUERY = "name:ref AND host:x";

  @Test
  void referenceQueryMayHoldColonsAndCommas() {
    FastDtw dtw = (FastDtw) Functions.parse("fastdtw:name:ref AND host:x,5,0.8");
    assertEquals(QUERY, dtw.referenceQuery());
    assertEquals(5, dtw.radius());
    assertEquals(0.8, dtw.maxCost());
    assertEquals(List.of(QUERY, "5", "0.8"), dtw.arguments());
    assertEquals(List.of(QUERY), dtw.referenceQueries());
    FastDtw commas = (FastDtw) Functions.parse("FastDTW: host:(a,b) , 2 , 1.5");
    assertEquals("host:(a,b)", commas.referenceQuery());
  }

  @Test
  void missingArgumentsAreReported() {
    FunctionQueryException error =
        assertThrows(FunctionQueryException.class, () -> Functions.parse("fastdtw:name:ref,5"));
    assertTrue(error.getMessage().startsWith("fastdtw: needs 3 arguments"), error.getMessage());
  }

  @Test
  void shiftedCopyOfTheReferenceMatches() {
    Points reference = perSecond(0, 0, 1, 5, 1, 0, 0, 0);
    Points series = perSecond(0, 0, 0, 0, 1, 5, 1, 0);
    References references = query -> {
      assertEquals(QUERY, query);
      return reference;
    };
    AnalysisResult result = analyse("fastdtw:" + QUERY + ",1,0.1", series, references);
    assertTrue(result.matches());
    assertEquals(0.0, result.details().get("distance"));
    assertEquals(0.0, result.details().get("normalizedDistance"));
    assertTrue((Long) result.details().get("pathLength") >= 8);
  }

  @Test
  void differentShapeExceedsTheMaximumCost() {
    Points reference = perSecond(0, 1, 2, 3, 4, 5);
    Points series = perSecond(5, 4, 3, 2, 1, 0);
    AnalysisResult result = analyse("fastdtw:q,3,0.5", series, query -> reference);
    assertFalse(result.matches());
    double distance = TimeWarping.exact(values(series), values(reference)).distance();
    assertEquals(distance, result.details().get("distance"));
    assertEquals(distance / (Long) result.details().get("pathLength"),
        (Double) result.details().get("normalizedDistance"), 1e-12);
  }
}
