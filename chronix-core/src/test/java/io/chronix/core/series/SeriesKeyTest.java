package io.chronix.core.series;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Keys of a fleet of hosts must spread over hash codes: the ingest path keeps them in hash maps. */
class SeriesKeyTest {

  @Test
  void countsTheCharactersOfNameAndValuesButNotOfTheSharedWords() {
    assertEquals(3 + 5 + 2, SeriesKey.metric("cpu", Map.of("host", "web-1", "dc", "eu")).valueCharacters());
    assertEquals(3, new SeriesKey("cpu", "a-long-type", Map.of()).valueCharacters());
  }

  @Test
  void keysThatDifferByOneCharacterInTwoAttributesHashApart() {
    // a map's hash (a sum of key ^ value per entry) gave these two the same code
    SeriesKey a = SeriesKey.metric("node_m0", Map.of("host", "h12", "dc", "dc0"));
    SeriesKey b = SeriesKey.metric("node_m0", Map.of("host", "h13", "dc", "dc1"));
    assertNotEquals(a.hashCode(), b.hashCode());
  }

  @Test
  void aFleetOfTenThousandSeriesHasNearlyAsManyHashCodes() {
    Set<Integer> codes = new HashSet<>();
    for (int host = 0; host < 1000; host++) {
      for (int metric = 0; metric < 10; metric++) {
        codes.add(SeriesKey.metric("node_m" + metric, Map.of("host", "h" + host, "dc", "dc" + host % 4)).hashCode());
      }
    }
    // a map's hash gave these 10,000 keys 3,516 codes
    assertTrue(codes.size() >= 9_990, codes.size() + " distinct codes");
  }

  @Test
  void equalKeysHashAlikeAndKnowTheirValueType() {
    SeriesKey a = new SeriesKey("m", "long", Map.of("host", "a", "dc", "x"));
    SeriesKey b = new SeriesKey("m", "long", Map.of("dc", "x", "host", "a"));
    assertEquals(a, b);
    assertEquals(a.hashCode(), b.hashCode());
    assertEquals(ValueType.LONG, a.valueType());
  }

  /**
   * Record ids are made of these (RecordSchema): stored, so they must not change. The values were
   * computed by the first version; asked again on one thread and on others, each with its digest.
   */
  @Test
  void idsStayAsStoredOnEveryThread() throws Exception {
    SeriesKey key = SeriesKey.metric("cpu_load", Map.of("host", "web-1", "dc", "eu"));
    SeriesKey other = SeriesKey.metric("cpu_load", Map.of("host", "web-2", "dc", "eu"));
    for (int i = 0; i < 3; i++) {
      assertEquals("faa2847674b0b6dc", key.id());
      assertEquals("f2a6f2334366b1bf", key.routingId());
      assertNotEquals(key.id(), other.id());
      assertEquals(key.routingId(), other.routingId(), "name and type alone");
    }
    java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(2);
    try {
      java.util.concurrent.Callable<String> ids = () -> key.id() + key.routingId();
      for (java.util.concurrent.Future<String> id : threads.invokeAll(java.util.Collections.nCopies(8, ids))) {
        assertEquals("faa2847674b0b6dcf2a6f2334366b1bf", id.get());
      }
    } finally {
      threads.shutdown();
    }
  }

  /** A key's record fields hash as the row of those fields would: name and type placed by their field names. */
  @Test
  void recordFieldsHashIsTheOrderedHashOfTheKeysFields() {
    java.util.Random random = new java.util.Random(17);
    String[] names = {"a_first", "dc", "host", "nic", "rack", "tier", "zone"};
    for (int round = 0; round < 300; round++) {
      java.util.TreeMap<String, String> attributes = new java.util.TreeMap<>();
      for (String name : names) {
        if (random.nextBoolean()) {
          attributes.put(name, "v" + random.nextInt(5));
        }
      }
      SeriesKey key = new SeriesKey("m" + random.nextInt(4), random.nextBoolean() ? SeriesKey.METRIC : "string", attributes);
      java.util.TreeMap<String, String> fields = new java.util.TreeMap<>(attributes);
      fields.put(io.chronix.core.record.RecordFields.NAME, key.name());
      fields.put(io.chronix.core.record.RecordFields.TYPE, key.type());
      int expected = new SortedArrayMap<>(fields.keySet().toArray(new String[0]), fields.values().toArray(new String[0]))
          .orderedHashCode();
      assertEquals(expected, key.recordFieldsHash(), key::toString);
      assertEquals(expected, key.recordFieldsHash(), "kept: " + key);
    }
  }
}
