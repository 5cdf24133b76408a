package io.chronix.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.chronix.benchmarks.PromQlBenchmark.Schedule;
import io.chronix.benchmarks.PromQlBenchmark.Shape;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Where each round's window lies, moving on or going round, and the peer's cache switch. */
class PromQlBenchmarkTest {

  private static final long END = 1_717_200_000_000L;
  private static final Shape RANGE = new Shape("synthetic", "one series", "up", false, 3_600_000, 15_000, END, null);
  private static final Shape INSTANT = new Shape("synthetic", "topk", "topk(10, up)", true, 0, 0, END, null);

  @Test
  void movingWindowsNeverRepeat() {
    Schedule moving = Schedule.moving(-1, 300);
    Set<Long> ends = new HashSet<>();
    for (int round = 0; round < 500; round++) {
      long end = moving.end(RANGE, round);
      assertEquals(END - round * 15_000L, end, "round " + round);
      ends.add(end);
    }
    assertEquals(500, ends.size());
    assertEquals(END + 7 * 60_000L, Schedule.moving(1, 20).end(INSTANT, 7), "an instant shape moves a minute a round");
  }

  @Test
  void movingWarmUpStaysWithinTheHourBeforeTheEnd() {
    assertEquals(240, Schedule.moving(-1, 300).maxWarmUpRounds(RANGE), "an hour of 15 s steps");
    assertEquals(60, Schedule.moving(-1, 300).maxWarmUpRounds(INSTANT), "an hour of minutes");
    assertEquals(20, Schedule.moving(1, 20).maxWarmUpRounds(RANGE), "the live shapes' bound");
  }

  @Test
  void steadyRoundsGoRoundTheFirstWindows() {
    Schedule steady = Schedule.steady(-1, 12);
    for (int round = 0; round < 100; round++) {
      assertEquals(END - (round % 12) * 15_000L, steady.end(RANGE, round), "round " + round);
    }
    assertEquals(steady.end(RANGE, 3), steady.end(RANGE, 15));
    assertNotEquals(steady.end(RANGE, 3), steady.end(RANGE, 4));
    assertEquals(2_000, steady.maxWarmUpRounds(RANGE), "not bound to the hour: the windows repeat");
  }

  @Test
  void onlyTheSteadyStateTurnsBothCachesOff() {
    Map<String, String> form = new LinkedHashMap<>();
    form.put("query", "up");
    form.put("time", "1717200000");
    assertSame(form, PromQlBenchmark.withoutCache(Schedule.moving(-1, 300).cachesOff(), form));
    Map<String, String> without = PromQlBenchmark.withoutCache(Schedule.steady(-1, 60).cachesOff(), form);
    assertEquals("1", without.get("nocache"));
    assertSame(form, PromQlBenchmark.withoutCache(Schedule.steady(-1, 60, false).cachesOff(), form), "--kept");
    assertEquals(List.of("query", "time", "nocache"), List.copyOf(without.keySet()));
    assertEquals(2, form.size(), "the form asked for stays as it was");
  }
}
