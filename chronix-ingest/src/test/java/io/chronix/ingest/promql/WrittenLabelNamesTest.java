package io.chronix.ingest.promql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.chronix.analysis.promql.model.Labels;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Label sets written with one answer's kept names: each name escaped as Prometheus shows it, every time. */
class WrittenLabelNamesTest {

  @Test
  void namesAreWrittenEscapedEveryTime() throws Exception {
    List<Labels> series = List.of(
        Labels.of("__name__", "cpu", "host", "a", "host.zone", "eu"),
        Labels.of("__name__", "cpu", "host", "b"),
        Labels.of("__name__", "mem", "host.zone", "us", "rack-1", "r\"1"),
        Labels.of("__name__", "cpu", "host", "a", "host.zone", "eu"));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator json = new JsonFactory().createGenerator(out)) {
      WrittenLabelNames names = new WrittenLabelNames();
      json.writeStartArray();
      for (Labels labels : series) {
        ApiWriter.labels(json, labels, names);
      }
      json.writeEndArray();
    }
    assertEquals("[{\"__name__\":\"cpu\",\"host\":\"a\",\"U__host_2e_zone\":\"eu\"},"
        + "{\"__name__\":\"cpu\",\"host\":\"b\"},"
        + "{\"__name__\":\"mem\",\"U__host_2e_zone\":\"us\",\"U__rack_2d_1\":\"r\\\"1\"},"
        + "{\"__name__\":\"cpu\",\"host\":\"a\",\"U__host_2e_zone\":\"eu\"}]", out.toString(StandardCharsets.UTF_8));
  }
}
