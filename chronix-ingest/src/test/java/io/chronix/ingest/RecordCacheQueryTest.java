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

  /**
   * Windows inside a record of many blocks, each asked twice (the second time its inner blocks are
   * kept decoded), answer the record's points in the window, raw and analysed; written again, the
   * series answers its new points in the same windows.
   */
  @Test
  void windowsOverKeptBlocksAnswerAsStored() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dir.toString())).start()) {
      int n = 3_000; // six blocks of 512 points
      writeMany(server, n, 0);
      long[][] windows = {{100, 2_900}, {513, 1_024}, {0, 3_000}, {700, 2_100}, {1_500, 1_530}};
      for (int round = 0; round < 2; round++) {
        for (long[] w : windows) {
          assertEquals(expected(w, 0), windowValues(server, w), "round " + round + ", window " + w[0] + "-" + w[1]);
          assertEquals((double) expected(w, 0).size(), windowCount(server, w), "count, window " + w[0] + "-" + w[1]);
        }
      }
      writeMany(server, n, 10_000); // the same timestamps again: the newer points win
      for (long[] w : windows) {
        assertEquals(expected(w, 10_000), windowValues(server, w), "written again, window " + w[0] + "-" + w[1]);
      }
    }
  }

  /** Points {@code i} of a second apart from T0 with values {@code first + i}, flushed into a record. */
  private static void writeMany(ChronixServer server, int n, int first) throws Exception {
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < n; i++) {
      lines.append("mem,host=a value=").append(first + i).append(' ').append(T0 + i * 1000L).append('\n');
    }
    assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", lines.toString(), false).statusCode());
    assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
  }

  private static List<Double> expected(long[] window, int first) {
    List<Double> values = new ArrayList<>();
    for (long i = window[0]; i <= window[1] && i < 3_000; i++) {
      values.add((double) (first + i));
    }
    return values;
  }

  /** The window's ends as the query's start and end (inclusive), seconds after T0. */
  private static String windowQuery(long[] window) {
    return "name:mem AND host:a AND start:" + (T0 + window[0] * 1000L) + " AND end:" + (T0 + window[1] * 1000L);
  }

  private static List<Double> windowValues(ChronixServer server, long[] window) throws Exception {
    JsonNode docs = TestHttp.query(server.solrUrl(), windowQuery(window), "&fl=points").at("/response/docs");
    List<Double> values = new ArrayList<>();
    for (JsonNode value : docs.path(0).path("points").path("values")) {
      values.add(value.asDouble());
    }
    return values;
  }

  private static double windowCount(ChronixServer server, long[] window) throws Exception {
    return TestHttp.query(server.solrUrl(), windowQuery(window), "&fl=name&cf=metric%7Bcount%7D")
        .at("/response/docs/0/functions/0/value").asDouble();
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
