package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.chronix.ingest.config.ServerConfig;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records kept inflated between queries (the plugin's record cache) answer as the store holds
 * them: records of different segments with the same document number stay apart, and a record
 * written again or deleted after it was kept is answered as written or not at all.
 */
class RecordCacheQueryTest {

  private static final long T0 = 1_700_000_000_000L;

  @TempDir Path dir;

  @Test
  void keptRecordsAnswerAsStored() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dir.toString())).start()) {
      write(server, "a", 0);
      assertEquals(List.of(0.0, 1.0, 2.0, 3.0, 4.0), values(server, "a"));
      assertEquals(List.of(0.0, 1.0, 2.0, 3.0, 4.0), values(server, "a"), "asked again, from the kept record");

      // the next flush is a segment of its own: its one record is document 0 there too
      write(server, "b", 100);
      assertEquals(List.of(100.0, 101.0, 102.0, 103.0, 104.0), values(server, "b"));
      assertEquals(List.of(0.0, 1.0, 2.0, 3.0, 4.0), values(server, "a"));

      write(server, "a", 50); // the same timestamps again: the newer points win
      assertEquals(List.of(50.0, 51.0, 52.0, 53.0, 54.0), values(server, "a"));
      assertEquals(54.0, TestHttp.query(server.solrUrl(), "name:cpu AND host:a", "&fl=name&cf=metric%7Bmax%7D")
          .at("/response/docs/0/functions/0/value").asDouble());

      assertEquals(200, TestHttp.post(server.baseUrl() + "/api/v1/admin/tsdb/delete_series",
          "match[]=" + URLEncoder.encode("cpu{host=\"a\"}", StandardCharsets.UTF_8), false,
          "application/x-www-form-urlencoded").statusCode());
      assertEquals(List.of(), values(server, "a"), "a deleted series is gone, kept or not");
      assertEquals(List.of(100.0, 101.0, 102.0, 103.0, 104.0), values(server, "b"));
    }
  }

  /** Five points a second apart from T0, values from {@code first} up, flushed into a record. */
  private static void write(ChronixServer server, String host, int first) throws Exception {
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      lines.append("cpu,host=").append(host).append(" value=").append(first + i).append(' ')
          .append(T0 + i * 1000L).append('\n');
    }
    assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", lines.toString(), false).statusCode());
    assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
  }

  private static List<Double> values(ChronixServer server, String host) throws Exception {
    JsonNode docs = TestHttp.query(server.solrUrl(), "name:cpu AND host:" + host, "&fl=points").at("/response/docs");
    List<Double> values = new ArrayList<>();
    for (JsonNode value : docs.path(0).path("points").path("values")) {
      values.add(value.asDouble());
    }
    return values;
  }
}
