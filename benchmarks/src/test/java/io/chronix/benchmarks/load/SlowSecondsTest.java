package io.chronix.benchmarks.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class SlowSecondsTest {

  private static SlowSeconds of(int seconds, int... slowSeconds) {
    int[] second = new int[seconds];
    int[] slowest = new int[seconds];
    for (int s = 0; s < seconds; s++) {
      second[s] = s;
      slowest[s] = 4;
    }
    for (int s : slowSeconds) {
      slowest[s] = 25;
    }
    return SlowSeconds.of(second, slowest, 10, seconds);
  }

  @Test
  void slowSecondsAfterTheFirstMinuteAreToldAsSpansWithShortGapsJoined() {
    SlowSeconds run = of(180, 3, 10, 59, 71, 72, 74, 78, 105, 143, 144, 179);
    assertEquals(3, run.inFirstMinute());
    // 71, 72 and 74 are two seconds apart at most: one span; 78 is four after 74
    assertEquals(List.of("71-74", "78", "105", "143-144", "179"), run.spansAfterFirstMinute());
    assertEquals("query raw 5m: 11 of 180 s held an answer over 10 ms (3 in the first minute); after it at 71-74, 78,"
        + " 105, 143-144, 179 s", run.describe("query raw 5m"));
  }

  @Test
  void onlyAnswersLongerThanTheLimitMakeASecondSlow() {
    SlowSeconds run = SlowSeconds.of(new int[] {60, 61, 62, 63}, new int[] {10, 11, 0, 9}, 10, 64);
    assertEquals(List.of("61"), run.spansAfterFirstMinute());
    assertEquals("write: 1 of 64 s held an answer over 10 ms (0 in the first minute); after it at 61 s",
        run.describe("write"));
  }

  /** The line names the limit the seconds were found with. */
  @Test
  void theLineNamesItsOwnLimit() {
    SlowSeconds run = SlowSeconds.of(new int[] {70, 71}, new int[] {30, 20}, 25, 72);
    assertEquals("write: 1 of 72 s held an answer over 25 ms (0 in the first minute); after it at 70 s",
        run.describe("write"));
  }

  @Test
  void aRunWithoutSlowSecondsSaysSo() {
    assertEquals("write: 0 of 120 s held an answer over 10 ms (0 in the first minute); none after it",
        of(120).describe("write"));
  }

  @Test
  void aLongListNamesItsFirstSpansAndCountsTheRest() {
    int[] every4th = java.util.stream.IntStream.range(0, 40).map(i -> 60 + 4 * i).toArray();
    String line = of(300, every4th).describe("write");
    assertEquals(true, line.endsWith("148, 152 s and 16 spans more"), line);
  }

  @Test
  void secondsAndMaximaMustPair() {
    assertThrows(IllegalArgumentException.class, () -> SlowSeconds.of(new int[2], new int[3], 10, 2));
  }
}
