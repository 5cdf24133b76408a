package io.chronix.analysis.promql.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.analysis.promql.engine.QueryResult;
import java.util.List;

/** Compares two range query answers: the same series, timestamps and values. */
public final class SameMatrix {

  private SameMatrix() {}

  /**
   * @param rounding values may differ in their last bits (sums added in another order); else
   *     they must be equal bit for bit
   */
  public static void assertSameMatrix(QueryResult expectedResult, QueryResult actualResult, String what,
      boolean rounding) {
    List<QueryResult.Series> expected = ((QueryResult.Matrix) expectedResult.data()).series();
    List<QueryResult.Series> actual = ((QueryResult.Matrix) actualResult.data()).series();
    assertEquals(expected.size(), actual.size(), what + ": " + expected.stream().map(QueryResult.Series::labels).toList()
        + " and " + actual.stream().map(QueryResult.Series::labels).toList());
    assertTrue(!expected.isEmpty(), what + " has an answer");
    for (int s = 0; s < expected.size(); s++) {
      QueryResult.Series e = expected.get(s);
      QueryResult.Series a = actual.get(s);
      assertEquals(e.labels(), a.labels(), what);
      assertEquals(e.size(), a.size(), what + " " + e.labels());
      for (int i = 0; i < e.size(); i++) {
        assertEquals(e.timestamps()[i], a.timestamps()[i], what);
        double ev = e.values()[i];
        double av = a.values()[i];
        String where = what + " " + e.labels() + " at " + e.timestamps()[i];
        if (rounding && !Double.isNaN(ev)) {
          assertEquals(ev, av, Math.abs(ev) * 1e-12, where);
        } else {
          assertEquals(Double.doubleToLongBits(ev), Double.doubleToLongBits(av), where + ": " + ev + " vs " + av);
        }
      }
    }
  }
}
