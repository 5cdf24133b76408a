package io.chronix.ingest.promql;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.series.KeptRow;
import io.chronix.core.series.SortedArrayMap;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A row the store keeps gets its label set and their JSON made once and kept with it; a row the
 * store does not keep, or whose JSON would be larger than the store counts for it, gets them
 * anew each time. The JSON is what the endpoint writes for the labels, escapes included.
 */
class ListedSeriesTest {

  private static SortedArrayMap<String> row(String name, String host) {
    return new SortedArrayMap<>(new String[] {"host", "name", "odd-label", "type"},
        new String[] {host, name, "a\"b\\c\u00e9", "metric"});
  }

  @Test
  void aKeptRowsSeriesIsMadeOnceAndWrittenAsTheEndpointWritesIt() throws Exception {
    KeptRow kept = new KeptRow(row("cpu", "h1"));
    ListedSeries first = ListedSeries.of(kept, new SeriesLabels.Shared());
    assertSame(first, ListedSeries.of(kept, new SeriesLabels.Shared()), "made again");
    assertSame(first, kept.derived());
    assertArrayEquals(first.labels().orderKey(), first.order(), "the order key not kept");
    Labels expected = SeriesLabels.of(row("cpu", "h1"));
    assertEquals(expected, first.labels());
    assertArrayEquals(written(expected), first.json());
    // the label name escaped as Prometheus shows it, the value as JSON needs it
    assertEquals("{\"__name__\":\"cpu\",\"host\":\"h1\",\"" + io.chronix.core.series.PrometheusNames.escape("odd-label")
        + "\":\"a\\\"b\\\\c\u00e9\"}", new String(first.json(), StandardCharsets.UTF_8));
  }

  @Test
  void aRowNotKeptOrTooLargeGetsItsSeriesAnew() {
    SortedArrayMap<String> plain = row("cpu", "h1");
    ListedSeries listed = ListedSeries.of(plain, new SeriesLabels.Shared());
    assertNull(listed.json(), "JSON for a row no one keeps");
    assertNull(listed.order(), "an order key for a row no one keeps");
    assertEquals(SeriesLabels.of(row("cpu", "h1")), listed.labels());

    KeptRow large = new KeptRow(row("cpu", "h".repeat(KeptRow.DERIVED_BYTES)));
    ListedSeries first = ListedSeries.of(large, new SeriesLabels.Shared());
    assertNull(large.derived(), "more kept than the store counts");
    assertEquals(SeriesLabels.of(row("cpu", "h".repeat(KeptRow.DERIVED_BYTES))), first.labels());
    ListedSeries again = ListedSeries.of(large, new SeriesLabels.Shared());
    assertEquals(first.labels(), again.labels());
    assertArrayEquals(first.json(), again.json());
  }

  private static byte[] written(Labels labels) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator json = new JsonFactory().createGenerator(out)) {
      ApiWriter.labels(json, labels, new WrittenLabelNames());
    }
    return out.toByteArray();
  }

  /** Series with order keys and without, and one whose labels have none, sort as their label sets. */
  @Test
  void seriesSortAsTheirLabelSetsWithAndWithoutOrderKeys() {
    List<ListedSeries> series = new ArrayList<>();
    List<Labels> labels = new ArrayList<>();
    for (int host = 0; host < 40; host++) {
      String value = host % 7 == 0 ? "h\ud83d\ude00" + host : "h" + host;
      SortedArrayMap<String> fields = row(host % 3 == 0 ? "cpu" : "mem", value);
      ListedSeries listed = ListedSeries.of(host % 2 == 0 ? new KeptRow(fields) : fields, new SeriesLabels.Shared());
      series.add(listed);
      labels.add(listed.labels());
    }
    assertTrue(series.stream().filter(s -> s.order() != null).count() > 10, "too few with keys");
    Collections.shuffle(series, new java.util.Random(3));
    Collections.sort(series);
    Collections.sort(labels);
    assertEquals(labels, series.stream().map(ListedSeries::labels).toList());
  }
}
