package io.chronix.ingest.promql;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.series.KeptRow;
import io.chronix.core.series.SortedArrayMap;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
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
}
