package io.chronix.ingest.promql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.series.SortedArrayMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SeriesLabelsTest {

  /** A series' fields as records give them: every value a String of its own. */
  private static Map<String, Object> fields(String name, String dc, String host) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("name", new String(name));
    fields.put("type", new String("metric"));
    fields.put("host", new String(host));
    fields.put("dc", List.of(new String(dc), "ignored"));
    return fields;
  }

  /**
   * The series read by one request share one instance of each value (what lets a sort see equal
   * values at once); the labels are those of the fields, the type left out and a field of several
   * values showing its first.
   */
  @Test
  void theSeriesOfOneReadShareTheirValues() {
    SeriesLabels.Shared shared = new SeriesLabels.Shared();
    List<Labels> read = new ArrayList<>();
    for (int host = 0; host < 50; host++) {
      read.add(SeriesLabels.of(fields("cpu", "dc" + host % 3, "h" + host), shared));
    }
    for (int i = 0; i < read.size(); i++) {
      Labels labels = read.get(i);
      assertEquals(List.of("__name__", "dc", "host"), List.of(labels.name(0), labels.name(1), labels.name(2)));
      assertEquals("cpu", labels.get("__name__"));
      assertEquals("dc" + i % 3, labels.get("dc"));
      assertEquals("h" + i, labels.get("host"));
      assertSame(read.get(0).get("__name__"), labels.get("__name__"), "series " + i);
      assertSame(read.get(i % 3).get("dc"), labels.get("dc"), "series " + i);
    }
    Labels alone = SeriesLabels.of(fields("cpu", "dc0", "h0"));
    assertEquals(read.get(0), alone);
    assertNotSame(read.get(0).get("__name__"), alone.get("__name__"), "another read keeps its own");
  }

  /**
   * Rows of a listing (one names array shared by the rows of a layout) get the labels the
   * builder gives their fields: across changes of layout, with empty values (no label), a
   * field of several values and two fields showing as one label.
   */
  @Test
  void rowsOfALayoutGetTheBuildersLabels() {
    Random random = new Random(27);
    String[][] layouts = {
      {"dc", "host", "name", "type"},
      {"host", "name", "rack_l", "type"},
      {"_protocol", "host", "name", "type"}, // an origin attribute: no label
      {"name", "tag___name__", "type"}, // both show as __name__: the later field wins, as in the builder
      {"host", "name"},
    };
    SeriesLabels.Shared shared = new SeriesLabels.Shared();
    int rows = 0;
    for (int run = 0; run < 60; run++) {
      String[] names = layouts[random.nextInt(layouts.length)];
      for (int row = 0; row < 1 + random.nextInt(20); row++, rows++) {
        Object[] values = new Object[names.length];
        for (int i = 0; i < names.length; i++) {
          int pick = random.nextInt(12);
          values[i] = pick == 0 ? "" : pick == 1 ? List.of("v" + random.nextInt(3), "w") : "v" + random.nextInt(5);
        }
        SortedArrayMap<Object> fields = new SortedArrayMap<>(names, values);
        Labels.Builder expected = new Labels.Builder();
        for (int i = 0; i < names.length; i++) {
          String label = SeriesLabels.labelOf(names[i]);
          if (label != null) {
            expected.set(label, values[i] instanceof List<?> list ? (String) list.get(0) : (String) values[i]);
          }
        }
        Labels labels = SeriesLabels.of(fields, shared);
        assertEquals(expected.build(), labels, () -> fields.toString());
        assertEquals(labels, SeriesLabels.of(new LinkedHashMap<>(fields), new SeriesLabels.Shared()));
      }
    }
    assertTrue(rows > 300, "rows: " + rows);
  }
}
