package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class SeriesFieldsTest {

  @Test
  void asATreeMapOfTreeSetsWouldHoldThem() {
    Random random = new Random(13);
    for (int round = 0; round < 300; round++) {
      TreeMap<String, TreeSet<String>> model = new TreeMap<>();
      SeriesFields fields = new SeriesFields();
      SeriesFields other = new SeriesFields();
      for (int i = random.nextInt(40); i > 0; i--) {
        String field = random.nextInt(4) == 0 ? "type" : "f" + random.nextInt(12);
        String value = "v" + random.nextInt(random.nextInt(3) == 0 ? 4 : 1);
        (random.nextBoolean() ? fields : other).add(field, value);
        model.computeIfAbsent(field, k -> new TreeSet<>()).add(value);
      }
      SeriesFields fresh = new SeriesFields();
      fresh.addAll(other); // a series' first record: taken over whole
      assertEquals(other.values(), fresh.values(), "round " + round);
      fields.addAll(other);
      assertEquals(model, fields.values(), "round " + round);
      for (String field : model.keySet()) {
        assertEquals(model.get(field).first(), fields.first(field));
      }
      assertEquals(null, fields.first("absent"));
      Map<String, Object> expectedView = new LinkedHashMap<>();
      model.forEach((field, values) -> expectedView.put(field, values.size() == 1 ? values.first() : values));
      assertEquals(expectedView, new LinkedHashMap<>(fields.view()));
      assertEquals(model.containsKey("type") ? model.get("type").first() : "", fields.type());
      assertEquals(model.containsKey("type") && Set.of("v0", "v1").containsAll(model.get("type")),
          fields.typesWithin(Set.of("v0", "v1")));
      assertEquals(model.getOrDefault("f3", new TreeSet<>()), fields.valuesOf("f3"));
      Map<String, String> expectedFirst = new TreeMap<>();
      model.forEach((field, values) -> expectedFirst.put(field, values.first()));
      assertEquals(expectedFirst, fields.firstValues(), "a listing's row: each field's first value");
      assertEquals(new java.util.ArrayList<>(expectedFirst.keySet()), new java.util.ArrayList<>(fields.firstValues().keySet()));
    }
  }

  @Test
  void fieldsTakenOverWholeStayTheirGiversOwn() {
    SeriesFields record = new SeriesFields();
    record.add("host", "a");
    record.add("host", "b");
    record.add("name", "cpu");
    SeriesFields joined = new SeriesFields();
    joined.addAll(record);
    joined.add("host", "c");
    joined.add("name", "mem");
    joined.add("dc", "x");
    assertEquals(Set.of("a", "b"), record.values().get("host"), "a cached record's fields are shared by every query");
    assertEquals(Set.of("cpu"), record.values().get("name"));
    assertEquals(Set.of("a", "b", "c"), joined.values().get("host"));
    assertEquals(Set.of("cpu", "mem"), joined.values().get("name"));
  }

  @Test
  void theValuesGivenOutLeaveTheFieldsAsTheyAre() {
    SeriesFields fields = new SeriesFields();
    fields.add("host", "a");
    fields.add("host", "b");
    SortedSet<String> copy = fields.values().get("host");
    copy.add("c");
    assertEquals(Set.of("a", "b"), fields.values().get("host"));
    assertFalse(fields.typesWithin(Set.of("metric")), "no type");
    fields.add("type", "metric");
    assertTrue(fields.typesWithin(Set.of("metric")));
  }
}
