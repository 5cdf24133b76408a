package io.chronix.ingest.promql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.chronix.analysis.promql.model.Labels;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
}
