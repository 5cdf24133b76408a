package io.chronix.analysis.analysis;

import static io.chronix.analysis.TestSeries.perSecond;
import static io.chronix.analysis.analysis.AnalysisTestSupport.analyse;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.analysis.FunctionQueryException;
import io.chronix.analysis.Functions;
import io.chronix.core.series.Points;
import org.junit.jupiter.api.Test;

class SaxTest {

  private static final double[] RAMP = {0, 1, 2, 3, 4, 5, 6, 7};

  private final Points ramp = perSecond(RAMP);

  @Test
  void rampBecomesAnAscendingWord() {
    // mean 3.5, sample sd sqrt(6); PAA pairs 0.5 2.5 4.5 6.5 -> z -1.22 -0.41 0.41 1.22;
    // quartile breakpoints of N(0,1) are -0.674, 0, 0.674 -> a b c d
    assertEquals("abcd", analyse("sax:abcd,4,4,0.01", ramp).details().get("word"));
    assertEquals("aabbccdd", SaxWord.of(RAMP, 8, 4, 0.01));
    assertEquals("abc", SaxWord.of(RAMP, 3, 3, 0.01));
  }

  @Test
  void patternIsAnAnchoredGlob() {
    assertTrue(analyse("sax:abcd,4,4,0.01", ramp).matches());
    assertTrue(analyse("sax:a*d,4,4,0.01", ramp).matches());
    assertTrue(analyse("sax:a??d,4,4,0.01", ramp).matches());
    assertTrue(analyse("sax:*,4,4,0.01", ramp).matches());
    assertTrue(analyse("sax:AB*,4,4,0.01", ramp).matches());
    assertFalse(analyse("sax:bc,4,4,0.01", ramp).matches());
    assertFalse(analyse("sax:a?d,4,4,0.01", ramp).matches());
    assertFalse(analyse("sax:dcba,4,4,0.01", ramp).matches());
  }

  @Test
  void flatSeriesBelowTheThresholdIsAllMiddleLetters() {
    Points flat = perSecond(5, 5.001, 4.999, 5, 5, 5);
    assertEquals("bbb", analyse("sax:*,3,3,0.1", flat).details().get("word"));
  }

  @Test
  void paaWeighsStraddlingPointsByTheirShare() {
    // 5 points into 2 segments: the middle point counts half in each
    assertArrayEquals(new double[] {(1 + 2 + 1.5) / 2.5, (1.5 + 4 + 5) / 2.5},
        SaxWord.paa(new double[] {1, 2, 3, 4, 5}, 2), 1e-12);
    // 2 points into 4 segments: each point fills two segments
    assertArrayEquals(new double[] {1, 1, 2, 2}, SaxWord.paa(new double[] {1, 2}, 4), 1e-12);
  }

  @Test
  void breakpointsSplitTheNormalDistributionEvenly() {
    assertArrayEquals(new double[] {-0.4307, 0.4307}, SaxWord.breakpoints(3), 1e-4);
    assertArrayEquals(new double[] {-0.6745, 0, 0.6745}, SaxWord.breakpoints(4), 1e-4);
  }

  @Test
  void badArgumentsAreRejected() {
    assertThrows(FunctionQueryException.class, () -> Functions.parse("sax:ab-c,4,4,0.01"));
    assertThrows(FunctionQueryException.class, () -> Functions.parse("sax:abc,0,4,0.01"));
    assertThrows(FunctionQueryException.class, () -> Functions.parse("sax:abc,4,27,0.01"));
    assertThrows(FunctionQueryException.class, () -> Functions.parse("sax:abc,4,4"));
  }
}
