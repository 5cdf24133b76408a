package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.chronix.ingest.config.ServerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A page of series ({@code start}, {@code rows}) is chosen before the series are decoded, and is
 * exactly that page of the whole answer, with the whole answer's count: over records wholly inside
 * the range and cut by it, a series whose record spans the range without a point in it (not
 * counted), buffered points, functions answered from the records' statistics, and steps.
 */
class PagedQueryTest {

  private static final long T0 = 1_700_000_000_000L;
  private static final long MINUTE = 60_000;

  @TempDir Path dataDir;

  @Test
  void aPageIsThatPageOfTheWholeAnswer() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.toString()).with("chunk.maxPoints", "8")).start()) {
      StringBuilder lines = new StringBuilder();
      for (int s = 0; s < 12; s++) {
        for (int i = 0; i < 30; i++) {
          lines.append("paged,host=h").append(s).append(" value=").append(s * 100 + i).append(' ')
              .append(T0 + i * MINUTE).append('\n');
        }
      }
      // one point at each end of an hour: a range inside it holds none of them
      lines.append("paged,host=gap value=1 ").append(T0).append('\n');
      lines.append("paged,host=gap value=2 ").append(T0 + 60 * MINUTE).append('\n');
      assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", lines.toString(), false).statusCode());
      assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
      // buffered points of two series, one of them new
      String buffered = "paged,host=h3 value=7 " + (T0 + 31 * MINUTE) + "\npaged,host=late value=8 " + (T0 + 12 * MINUTE)
          + "\n";
      assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", buffered, false).statusCode());

      List<String[]> queries = List.of(
          new String[] {"name:paged", "&cj=host&fl=host,dataAsJson"},
          new String[] {"name:paged AND start:" + (T0 + 10 * MINUTE) + " AND end:" + (T0 + 20 * MINUTE),
              "&cj=host&fl=host,dataAsJson"},
          new String[] {"name:paged AND start:" + (T0 + 10 * MINUTE) + " AND end:" + (T0 + 20 * MINUTE),
              "&cj=host&cf=metric%7Bmax%3Bcount%7D"},
          new String[] {"name:paged", "&cj=host&cf=metric%7Bmax%3Bavg%7D"},
          new String[] {"name:paged AND host:h1*", "&cj=host&fl=host,dataAsJson"});
      int cut = 0;
      for (String[] query : queries) {
        JsonNode whole = TestHttp.query(server.solrUrl(), query[0], query[1]).at("/response");
        int total = whole.at("/numFound").asInt();
        assertEquals(total, whole.at("/docs").size(), query[0]);
        cut += whole.toString().contains("\"gap\"") ? 0 : 1;
        for (int[] page : new int[][] {{0, 1}, {0, 5}, {3, 4}, {9, 10}, {total - 1, 3}, {total, 2}, {0, 0}}) {
          JsonNode paged = TestHttp.query(server.solrUrl(), query[0],
              query[1] + "&start=" + page[0] + "&rows=" + page[1]).at("/response");
          String what = query[0] + " " + query[1] + " start " + page[0] + " rows " + page[1];
          assertEquals(total, paged.at("/numFound").asInt(), what);
          assertEquals(page[0], paged.at("/start").asInt(), what);
          List<JsonNode> expected = new ArrayList<>();
          for (int i = page[0]; i < Math.min(total, page[0] + page[1]); i++) {
            expected.add(whole.at("/docs/" + i));
          }
          List<JsonNode> actual = new ArrayList<>();
          paged.at("/docs").forEach(actual::add);
          assertEquals(expected, actual, what);
        }
      }
      assertTrue(cut >= 2, "the series without a point in the range left out of the cut ranges' answers");
    }
  }
}
