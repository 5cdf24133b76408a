package io.chronix.ingest.semantic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.codec.Compressions;
import io.chronix.core.record.Record;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SemanticRulesTest {

  private static SemanticRules rules(String spec) {
    return SemanticRules.parse(spec, 10_000, Compressions.GZIP);
  }

  @Test
  void firstMatchingGlobWins() {
    SemanticRules rules = rules("cpu_* -> digits=2 | cpu_idle -> digits=5 | *.mem? -> ddc=10ms");
    assertEquals(2, rules.ruleFor("cpu_idle").orElseThrow().significantDigits());
    assertEquals(10_000_000L, rules.ruleFor("java.memX").orElseThrow().ddcThresholdNanos());
    assertTrue(rules.ruleFor("java.memory").isEmpty(), "? is one character");
    assertTrue(rules.ruleFor("load").isEmpty());
    assertTrue(rules("").isEmpty());
  }

  @Test
  void digitsRoundToSignificantDigits() {
    Points points = Points.wrap(new long[] {1, 2, 3, 4, 5}, new double[] {123456.0, 0.0012345, -98.76, 0.0, Double.NaN}, 5);
    Points rounded = rules("* -> digits=3").ruleFor("x").orElseThrow().apply(points);
    assertEquals(123000.0, rounded.value(0));
    assertEquals(0.00123, rounded.value(1));
    assertEquals(-98.8, rounded.value(2));
    assertEquals(0.0, rounded.value(3));
    assertTrue(Double.isNaN(rounded.value(4)));
  }

  @Test
  void downsampleAggregatesPerInterval() {
    long minute = 60_000_000_000L;
    Points points = Points.wrap(new long[] {0, minute / 2, minute, minute + 1, 3 * minute}, new double[] {1, 3, 10, 20, 7}, 5);
    Points down = rules("* -> downsample=1m/avg").ruleFor("x").orElseThrow().apply(points);
    assertEquals(Points.wrap(new long[] {0, minute, 3 * minute}, new double[] {2, 15, 7}, 3), down);
  }

  @Test
  void ddcMovesTimestampsWithinItsBoundOnly() {
    Random random = new Random(5);
    Points points = new Points();
    long t = 1_439_393_134_415_000_000L;
    for (int i = 0; i < 5000; i++) {
      t += 1_000_000_000L + (random.nextInt(40) - 20) * 1_000_000L;
      points.add(t, i);
    }
    SemanticRule rule = rules("* -> ddc=50ms").ruleFor("x").orElseThrow();
    List<Record> records = rule.chunker().chunk(SeriesKey.metric("x", Map.of()), rule.apply(points));
    Points stored = records.get(0).decode();
    for (int i = 0; i < points.size(); i++) {
      assertTrue(Math.abs(stored.timestamp(i) - points.timestamp(i)) <= 50_000_000L, "point " + i);
      assertEquals(points.value(i), stored.value(i));
    }
    int lossless = ChunkCodec.lossless().encode(points).length;
    assertTrue(records.get(0).data().length < lossless * 0.8, records.get(0).data().length + " vs " + lossless);
  }

  @Test
  void badRulesNameTheRuleAndTheProblem() {
    String[][] cases = {
        {"cpu_*", "must read '<glob> -> <options>'"},
        {"cpu_* -> digits=0", "digits must be 1 to 17"},
        {"cpu_* -> ddc=soon", "ddc must be a duration"},
        {"cpu_* -> downsample=1m", "<interval>/<aggregation>"},
        {"cpu_* -> downsample=1m/median", "cpu_*"},
        {"cpu_* -> zip=9", "unknown option 'zip'"},
        {"cpu_* -> digits", "must read key=value"}};
    for (String[] bad : cases) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> rules(bad[0]), bad[0]);
      assertTrue(e.getMessage().contains(bad[1]) && e.getMessage().startsWith("semantic.rules"), e.getMessage());
    }
  }
}
