package io.chronix.ingest.transfer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.ingest.pipeline.PointBatch;
import io.chronix.ingest.protocol.LineError;
import io.chronix.ingest.protocol.ParseResult;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonLinesReaderTest {

  @Test
  void eachLineIsASeriesWithMillisecondTimestampsAndExactValues() throws Exception {
    PointBatch batch = new PointBatch();
    ParseResult result = new JsonLinesReader().parse(
        "{\"metric\":{\"__name__\":\"cpu\",\"host\":\"a\",\"empty\":\"\"},\"values\":[1.5,0.1,3],"
            + "\"timestamps\":[1000,2000,3000]}\n\n"
            + "{\"metric\":{\"__name__\":\"odd\"},\"values\":[NaN,Infinity,-Infinity,4.9E-324],"
            + "\"timestamps\":[1,2,3,4]}\n", batch);
    assertEquals(List.of(), result.errors());
    assertEquals(7, result.points());
    assertEquals("cpu", batch.key(0).name());
    assertEquals("a", batch.key(0).attributes().get("host"));
    assertTrue(!batch.key(0).attributes().containsKey("empty"), "an empty label is absent, as in Prometheus");
    assertEquals(2_000_000_000L, batch.timestamp(1));
    assertEquals(Double.doubleToRawLongBits(0.1), Double.doubleToRawLongBits(batch.value(1)));
    assertTrue(Double.isNaN(batch.value(3)));
    assertEquals(Double.POSITIVE_INFINITY, batch.value(4));
    assertEquals(Double.NEGATIVE_INFINITY, batch.value(5));
    assertEquals(Double.MIN_VALUE, batch.value(6));
  }

  @Test
  void aBadLineIsNamedAndDeliversNothingTheOthersAreKept() throws Exception {
    PointBatch batch = new PointBatch();
    String body = String.join("\n",
        "{\"metric\":{\"__name__\":\"ok\"},\"values\":[1],\"timestamps\":[1]}",
        "{\"metric\":{\"__name__\":\"short\"},\"values\":[1,2],\"timestamps\":[1]}",
        "{\"metric\":{\"host\":\"nameless\"},\"values\":[1],\"timestamps\":[1]}",
        "{\"metric\":{\"__name__\":\"text\"},\"values\":[1,\"x\"],\"timestamps\":[1,2]}",
        "{\"metric\":{\"__name__\":\"late\"},\"values\":[1],\"timestamps\":[1.5]}",
        "{\"metric\":{\"__name__\":\"far\"},\"values\":[1],\"timestamps\":[9999999999999999]}",
        "{\"metric\":{\"__name__\":\"ok\",\"n\":1},\"values\":[1],\"timestamps\":[1]}",
        "not json",
        "{\"metric\":{\"__name__\":\"ok2\"},\"values\":[2],\"timestamps\":[2]}");
    ParseResult result = new JsonLinesReader().parse(body, batch);
    assertEquals(2, result.points());
    assertEquals(2, batch.size());
    assertEquals("ok2", batch.key(1).name());
    List<LineError> errors = result.errors();
    assertEquals(List.of(2, 3, 4, 5, 6, 7, 8), errors.stream().map(LineError::line).toList());
    assertTrue(errors.get(0).problem().contains("2 values but 1 timestamps"), errors.get(0).problem());
    assertTrue(errors.get(1).problem().contains("no metric name"), errors.get(1).problem());
    assertTrue(errors.get(2).problem().contains("value 2 is not a number"), errors.get(2).problem());
    assertTrue(errors.get(3).problem().contains("timestamp 1 is not an integer"), errors.get(3).problem());
    assertTrue(errors.get(4).problem().contains("beyond the nanosecond range"), errors.get(4).problem());
    assertTrue(errors.get(5).problem().contains("label 'n' must be a string"), errors.get(5).problem());
    assertTrue(errors.get(6).problem().startsWith("not JSON"), errors.get(6).problem());
  }

  @Test
  void arraysBeyondTheLimitAreRefused() throws Exception {
    PointBatch batch = new PointBatch();
    String wide = "[" + "1,".repeat(io.chronix.core.series.Points.MAX_ARRAY_LENGTH) + "1]";
    String limit = "[" + "1,".repeat(io.chronix.core.series.Points.MAX_ARRAY_LENGTH - 1) + "1]";
    ParseResult result = new JsonLinesReader().parse(
        "{\"metric\":{\"__name__\":\"wide\"},\"values\":[" + limit + "," + wide + "],\"timestamps\":[1,2]}\n"
            + "{\"metric\":{\"__name__\":\"fits\"},\"values\":[" + limit + "],\"timestamps\":[1]}", batch);
    assertEquals(1, result.errors().size());
    assertTrue(result.errors().get(0).problem().contains("value 2 has 10001 elements, more than the 10000"),
        result.errors().get(0).problem());
    assertEquals(1, batch.size(), "the line at the limit is taken");
    assertEquals(10_000, batch.array(0).length);
  }
}
