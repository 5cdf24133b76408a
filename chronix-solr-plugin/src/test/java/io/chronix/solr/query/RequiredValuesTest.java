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

  /** One instance asked about many keys, as a live query asks it: the demanded values wherever the keys hold them. */
  @Test
  void admitsKeysOfManyNameListsInTurn() {
    java.util.Random random = new java.util.Random(8);
    String[] names = {"a", "dc", "host", "rack"};
    RequiredValues required = demanding("name", "cpu", "host", "h1", "rack", "r1");
    for (int i = 0; i < 3_000; i++) {
      Map<String, String> attributes = new java.util.TreeMap<>();
      for (String name : names) {
        if (random.nextInt(4) > 0) {
          attributes.put(name, (name.equals("host") || name.equals("rack") ? name.charAt(0) : "x") + "" + random.nextInt(2));
        }
      }
      SeriesKey key = SeriesKey.metric(random.nextInt(8) == 0 ? "mem" : "cpu", attributes);
      boolean expected = key.name().equals("cpu") && "h1".equals(attributes.get("host"))
          && "r1".equals(attributes.get("rack"));
      assertEquals(expected, required.admits(key), key::toString);
    }
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
