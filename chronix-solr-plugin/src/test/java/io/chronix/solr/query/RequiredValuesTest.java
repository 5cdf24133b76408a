package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.SeriesKey;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;

class RequiredValuesTest {

  private static final SeriesKey CPU_A = SeriesKey.metric("cpu", Map.of("host", "a", "dc", "eu"));

  private static RequiredValues demanding(String... fieldValuePairs) {
    Map<String, Set<BytesRef>> values = new LinkedHashMap<>();
    for (int i = 0; i < fieldValuePairs.length; i += 2) {
      values.computeIfAbsent(fieldValuePairs[i], f -> new java.util.HashSet<>()).add(new BytesRef(fieldValuePairs[i + 1]));
    }
    return new RequiredValues(values);
  }

  @Test
  void admitsExactlyTheSeriesWithEveryDemandedValue() {
    assertTrue(demanding().admits(CPU_A));
    assertTrue(demanding("name", "cpu", "host", "a").admits(CPU_A));
    assertTrue(demanding("type", SeriesKey.METRIC, "dc", "eu").admits(CPU_A));
    assertFalse(demanding("name", "cpu", "host", "b").admits(CPU_A));
    assertFalse(demanding("name", "mem").admits(CPU_A));
    assertFalse(demanding("rack", "1").admits(CPU_A), "an attribute the series lacks");
    assertFalse(demanding("host", "A").admits(CPU_A), "values are exact");
  }

  @Test
  void valuesBeyondAsciiCompareAsTheirTerms() {
    SeriesKey key = SeriesKey.metric("temp", Map.of("room", "küche ☕"));
    assertTrue(demanding("room", "küche ☕").admits(key));
    assertFalse(demanding("room", "kuche ☕").admits(key));
  }

  @Test
  void twoValuesOfOneFieldAdmitNothing() {
    RequiredValues both = demanding("host", "a", "host", "b");
    assertFalse(both.admits(CPU_A));
    assertFalse(both.admits(SeriesKey.metric("cpu", Map.of("host", "b"))));
  }

  @Test
  void theNameIsKnownOnlyWhenOneIsDemanded() {
    assertEquals("cpu", demanding("name", "cpu", "host", "a").name());
    assertNull(demanding("host", "a").name());
    assertNull(demanding("name", "cpu", "name", "mem").name());
  }
}
