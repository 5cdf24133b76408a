package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.chronix.ingest.config.ServerConfig;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A join of different series that hold the same timestamp keeps one value there, the same
 * whichever series was written first (docs/query.md): two servers written in opposite orders
 * answer alike. Re-sent points of one series still replace the earlier ones.
 */
class JoinTieTest {

  private static final long T0 = 1_700_000_000_000L;

  @TempDir Path dir;

  @Test
  void theWinnerOfASharedTimestampDoesNotDependOnWriteOrder() throws Exception {
    List<String> aFirst = List.of("tie,host=a value=1 " + T0, "tie,host=b value=2 " + T0);
    List<String> bFirst = List.of(aFirst.get(1), aFirst.get(0));
    JsonNode one = joined(dir.resolve("one"), aFirst);
    JsonNode other = joined(dir.resolve("other"), bFirst);
    assertEquals(one, other);
    assertEquals(1, one.get("timestamps").size(), one.toString());
    double value = one.at("/values/0").asDouble();
    assertTrue(value == 1 || value == 2, one.toString());
  }

  @Test
  void aResentPointOfOneSeriesReplacesTheEarlierOne() throws Exception {
    JsonNode points = joined(dir.resolve("resent"), List.of("tie,host=a value=1 " + T0, "tie,host=a value=3 " + T0));
    assertEquals(3.0, points.at("/values/0").asDouble(), points.toString());
  }

  /** Each line written and flushed on its own, then the series joined by name. */
  private static JsonNode joined(Path dataDir, List<String> lines) throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.toString())).start()) {
      for (String line : lines) {
        assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", line + "\n", false).statusCode());
        assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
      }
      return TestHttp.query(server.solrUrl(), "name:tie", "&cj=name&fl=points").at("/response/docs/0/points");
    }
  }
}
