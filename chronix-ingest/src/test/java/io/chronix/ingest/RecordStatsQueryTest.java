package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.chronix.core.record.Record;
import io.chronix.core.record.RecordStats;
import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.store.RecordDocuments;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Aggregations over whole records come from the records' statistics, with the answers the points
 * give: the records cut by the range's ends decoded, overlapping records (re-sent points) joined
 * from their points, and a whole record's blob not read at all.
 */
class RecordStatsQueryTest {

  private static final long T0 = 1_700_000_000_000L;
  private static final String FROM_STATS = "min;max;count;sum;first;last;range";

  @TempDir Path dataDir;

  @Test
  void statisticsAnswerAsThePointsWould() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.toString()).with("chunk.maxPoints", "10").with("solr.openAdminHandlers", "true"))
        .start()) {
      StringBuilder lines = new StringBuilder();
      for (int i = 0; i < 95; i++) { // ten records, the last of five points
        lines.append("agg,host=a value=").append((i * 37 % 101) - 50.5).append(' ').append(T0 + i * 1000L).append('\n');
      }
      assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", lines.toString(), false).statusCode());
      assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());

      // cut records at both ends, whole ones between, and the whole series
      assertSameAsDecoded(server, T0 + 15_000, T0 + 77_000);
      assertSameAsDecoded(server, T0 + 20_000, T0 + 29_000);
      assertSameAsDecoded(server, T0 - 1_000, T0 + 200_000);

      // re-sent points: a later record overlaps earlier ones and replaces some of their values
      StringBuilder again = new StringBuilder();
      for (int i = 22; i < 27; i++) {
        again.append("agg,host=a value=").append(1000 + i).append(' ').append(T0 + i * 1000L).append('\n');
      }
      assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", again.toString(), false).statusCode());
      assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
      JsonNode overlapped = assertSameAsDecoded(server, T0 + 15_000, T0 + 77_000);
      assertEquals(1026.0, overlapped.get("max").asDouble(), "the re-sent values win");
      // the same over the whole series (no range: no blob read before the overlap shows) and the
      // inner records alone, whose blobs are left unread until the overlap shows
      assertEquals(1026.0, assertSameAsDecoded(server, "name:agg").get("max").asDouble());
      assertEquals(1026.0, assertSameAsDecoded(server, "name:agg AND start:" + (T0 + 20_000) + " AND end:"
          + (T0 + 29_000)).get("max").asDouble());
      // the points themselves, over a range whose ends cut the overlapping records: each record is
      // cut to the range before the join, and the re-sent values still win
      JsonNode points = TestHttp.query(server.solrUrl(), "name:agg AND start:" + (T0 + 21_000) + " AND end:"
          + (T0 + 25_000), "&fl=points").at("/response/docs/0/points");
      for (int i = 21; i <= 25; i++) {
        assertEquals(T0 + i * 1000L, points.at("/timestamps/" + (i - 21)).asLong());
        assertEquals(i >= 22 ? 1000 + i : (i * 37 % 101) - 50.5, points.at("/values/" + (i - 21)).asDouble(), "point " + i);
      }
      assertEquals(5, points.get("values").size());

      // buffered points join the stored records, whose blobs are then read
      assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms",
          "agg,host=a value=5000 " + (T0 + 25_500) + "\n", false).statusCode());
      assertEquals(5000.0, assertSameAsDecoded(server, "name:agg AND start:" + (T0 + 20_000) + " AND end:"
          + (T0 + 29_000)).get("max").asDouble());
      assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());

      // a whole record whose blob is broken: statistics answer without reading it, points cannot
      SeriesKey broken = SeriesKey.metric("broken", Map.of("host", "a"));
      Record record = new Record(broken, T0 * 1_000_000L, (T0 + 9_000) * 1_000_000L, new RecordStats(10, -1, 7, 30, 2, 3),
          new byte[] {1, 2, 3});
      try (SolrClient solr = new Http2SolrClient.Builder(server.solrUrl()).build()) {
        solr.add("chronix", RecordDocuments.toDocument(record, 1));
        solr.commit("chronix");
      }
      String q = "name:broken AND start:" + (T0 - 1) + " AND end:" + (T0 + 60_000);
      JsonNode fromStats = TestHttp.query(server.solrUrl(), q, "&fl=name,start,end,count&cf="
          + URLEncoder.encode("metric{max;count;first}", StandardCharsets.UTF_8));
      assertEquals(7.0, fromStats.at("/response/docs/0/functions/0/value").asDouble());
      assertEquals(10, fromStats.at("/response/docs/0/functions/1/value").asLong());
      assertEquals(T0, fromStats.at("/response/docs/0/start").asLong());
      assertEquals(10, fromStats.at("/response/docs/0/count").asLong());
      var decoded = TestHttp.get(server.solrUrl() + "/chronix/query?q=" + URLEncoder.encode(q, StandardCharsets.UTF_8)
          + "&cf=" + URLEncoder.encode("metric{avg}", StandardCharsets.UTF_8));
      assertEquals(500, decoded.statusCode(), "avg needs the points, and this blob has none: " + decoded.body());
      assertTrue(decoded.body().contains("cannot be decoded"), decoded.body());
    }
  }

  /**
   * Buffered points after every record are summarized with the records: the same answers as the
   * points give, over the whole series and ranges that end or start among the buffered points.
   */
  @Test
  void bufferedPointsAfterTheRecordsAnswerAsThePointsWould() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.toString()).with("chunk.maxPoints", "10")).start()) {
      StringBuilder stored = new StringBuilder();
      for (int i = 0; i < 20; i++) { // two records
        stored.append("agg,host=a value=").append((i * 37 % 101) - 50.5).append(' ').append(T0 + i * 1000L).append('\n');
      }
      assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", stored.toString(), false).statusCode());
      assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
      StringBuilder buffered = new StringBuilder();
      for (int i = 20; i < 26; i++) {
        buffered.append("agg,host=a value=").append(i == 23 ? "-900" : String.valueOf(100 + i)).append(' ')
            .append(T0 + i * 1000L).append('\n');
      }
      assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", buffered.toString(), false).statusCode());
      assertEquals(125.0, assertSameAsDecoded(server, "name:agg").get("max").asDouble());
      assertEquals(-900.0, assertSameAsDecoded(server, T0 + 5_000, T0 + 23_000).get("min").asDouble());
      assertSameAsDecoded(server, T0 + 21_000, T0 + 40_000);
      assertSameAsDecoded(server, T0 + 12_000, T0 + 19_000);

      // buffered points among the records' (late ones, or a chunk the searcher sees already):
      // joined from the points, as before
      assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
      assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", "agg,host=a value=5555 " + (T0 + 10_500)
          + "\nagg,host=a value=6666 " + (T0 + 11_500) + "\n", false).statusCode());
      JsonNode among = assertSameAsDecoded(server, "name:agg");
      assertEquals(6666.0, among.get("max").asDouble());
      assertEquals(125.0, among.get("last").asDouble(), "the last point is still the records' last");
    }
  }

  /**
   * Two clients sending one series' two halves at once leave records that each span both halves:
   * they overlap but share no timestamp, and their statistics answer together as the points would,
   * over the whole series and ranges that cut them. A point then sent again makes them share one.
   */
  @Test
  void interleavedRecordsAnswerAsThePointsWould() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.toString()).with("chunk.maxPoints", "10")).start()) {
      for (int odd = 0; odd < 3; odd++) { // even seconds to 18, odd ones to 19, then 20 to 29: a record each
        StringBuilder lines = new StringBuilder();
        for (int i = odd == 2 ? 20 : odd; i < (odd == 2 ? 30 : 20); i += odd == 2 ? 1 : 2) {
          lines.append("agg,host=a value=").append((i * 37 % 101) - 50.5).append(' ').append(T0 + i * 1000L).append('\n');
        }
        assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", lines.toString(), false).statusCode());
        assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
      }
      var listed = TestHttp.get(server.solrUrl() + "/chronix/select?wt=json&q=name:agg&fl=start,end&sort=start%20asc");
      JsonNode records = new com.fasterxml.jackson.databind.ObjectMapper().readTree(listed.body()).at("/response/docs");
      assertEquals(3, records.size(), listed.body());
      assertTrue(records.at("/1/start").asLong() <= records.at("/0/end").asLong(), "the first two overlap: " + records);
      assertSameAsDecoded(server, "name:agg");
      assertSameAsDecoded(server, T0 + 3_000, T0 + 33_000);
      assertSameAsDecoded(server, T0 + 15_000, T0 + 25_000);

      assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms",
          "agg,host=a value=9999 " + (T0 + 21_000) + "\n", false).statusCode());
      assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
      assertEquals(9999.0, assertSameAsDecoded(server, "name:agg").get("max").asDouble(), "the point sent again wins");
    }
  }

  @Test
  void recordsReadFromDocValuesAnswerAsTheirStoredFields() throws Exception {
    assertSameFromDocValuesAndStoredFields(true);
  }

  /**
   * A store created by a release before the doc values keeps its schema (the server copies only
   * missing configset files): its records are read from stored fields, with the same answers.
   */
  @Test
  void aStoreWithoutTheDocValuesAnswersFromStoredFields() throws Exception {
    SchemaBeforeDocValues.writeInto(dataDir);
    assertSameFromDocValuesAndStoredFields(false);
  }

  private void assertSameFromDocValuesAndStoredFields(boolean docValues) throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.toString()).with("chunk.maxPoints", "10").with("solr.openAdminHandlers", "true"))
        .start()) {
      JsonNode nameField = new com.fasterxml.jackson.databind.ObjectMapper().readTree(
          TestHttp.get(server.solrUrl() + "/chronix/schema/fields/name").body());
      assertEquals(docValues, nameField.at("/field/docValues").asBoolean(false), nameField.toString());
      StringBuilder lines = new StringBuilder();
      for (int i = 0; i < 25; i++) { // typed attributes by their suffixes, strings beyond ASCII
        lines.append("typed,host=a,dc=zürich,rack_l=7,load_d=0.25,ssd_b=true value=").append(i % 7)
            .append(' ').append(T0 + i * 1000L).append('\n');
      }
      assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", lines.toString(), false).statusCode());
      assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
      for (String fl : new String[] {"", "&fl=name,type,start,end,count,host,dc,rack_l,load_d,ssd_b"}) {
        // max over whole records reads them from doc values; avg reads their stored fields and blobs
        JsonNode fromDocValues = TestHttp.query(server.solrUrl(), "name:typed", fl + "&cf="
            + URLEncoder.encode("metric{max}", StandardCharsets.UTF_8)).at("/response/docs/0");
        JsonNode fromStored = TestHttp.query(server.solrUrl(), "name:typed", fl + "&cf="
            + URLEncoder.encode("metric{avg}", StandardCharsets.UTF_8)).at("/response/docs/0");
        assertEquals(6.0, fromDocValues.at("/functions/0/value").asDouble());
        ((com.fasterxml.jackson.databind.node.ObjectNode) fromDocValues).remove("functions");
        ((com.fasterxml.jackson.databind.node.ObjectNode) fromStored).remove("functions");
        assertEquals(fromStored, fromDocValues);
        assertEquals("zürich", fromDocValues.get("dc").asText(), fromDocValues.toString());
        assertEquals(7, fromDocValues.get("rack_l").asLong(), fromDocValues.toString());
      }
    }
  }

  /**
   * Many series read from doc values together, each column's values looked up in the order of
   * their ordinals (not of the records): every record keeps its own values, a record lacking an
   * attribute stays without it, and series listings (no points) and summaries agree with stored fields.
   */
  @Test
  void manyRecordsReadFromDocValuesKeepTheirOwnValues() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.toString()).with("chunk.maxPoints", "10")).start()) {
      StringBuilder lines = new StringBuilder();
      for (int s = 0; s < 60; s++) {
        // hosts written in an order unlike their sorted order; every third series without a rack
        String tags = ",host=h" + (char) ('a' + (s * 37) % 26) + (s * 37) % 60 + (s % 3 == 0 ? "" : ",rack=r" + (59 - s));
        for (int i = 0; i < 25; i++) {
          lines.append("many").append(tags).append(" value=").append(s * 100 + i % 7).append(' ')
              .append(T0 + i * 1000L).append('\n');
        }
      }
      assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", lines.toString(), false).statusCode());
      assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
      String each = "&cj=*&rows=1000&fl=" + URLEncoder.encode("name,type,host,rack,start,end,count", StandardCharsets.UTF_8);
      JsonNode fromDocValues = TestHttp.query(server.solrUrl(), "name:many", each + "&cf="
          + URLEncoder.encode("metric{max}", StandardCharsets.UTF_8)).at("/response/docs");
      JsonNode fromStored = TestHttp.query(server.solrUrl(), "name:many", each + "&cf="
          + URLEncoder.encode("metric{avg}", StandardCharsets.UTF_8)).at("/response/docs");
      JsonNode listed = TestHttp.query(server.solrUrl(), "name:many", "&chronix.keys=true" + each).at("/response/docs");
      assertEquals(60, fromStored.size(), fromStored.toString());
      assertEquals(60, listed.size(), listed.toString());
      for (int s = 0; s < 60; s++) {
        com.fasterxml.jackson.databind.node.ObjectNode summary = (com.fasterxml.jackson.databind.node.ObjectNode) fromDocValues.get(s);
        com.fasterxml.jackson.databind.node.ObjectNode stored = (com.fasterxml.jackson.databind.node.ObjectNode) fromStored.get(s);
        double max = summary.remove("functions").at("/0/value").asDouble();
        stored.remove("functions");
        assertEquals(stored, summary);
        // the maximum tells which series the values came from: s * 100 + 6
        int series = (int) (max - 6) / 100;
        assertEquals("h" + (char) ('a' + (series * 37) % 26) + (series * 37) % 60, summary.get("host").asText(), summary.toString());
        assertEquals(series % 3 == 0 ? null : "r" + (59 - series), summary.has("rack") ? summary.get("rack").asText() : null,
            summary.toString());
        stored.remove(java.util.List.of("start", "end", "count"));
        assertEquals(stored, listed.get(s));
      }
    }
  }

  /**
   * A few records without blobs come through the record cache (RecordReader.CACHED_WITHOUT_BLOB):
   * each series asked alone, twice, from two segments whose document numbers repeat, keeps its own
   * values and agrees with its stored fields.
   */
  @Test
  void recordsAskedAgainFromTheCacheKeepTheirOwnValues() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.toString()).with("chunk.maxPoints", "10")).start()) {
      for (int segment = 0; segment < 2; segment++) {
        StringBuilder lines = new StringBuilder();
        for (int s = segment * 10; s < segment * 10 + 10; s++) {
          for (int i = 0; i < 25; i++) { // three records a series
            lines.append("again,host=h").append(s).append(" value=").append(s * 100 + i % 7).append(' ')
                .append(T0 + i * 1000L).append('\n');
          }
        }
        assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", lines.toString(), false).statusCode());
        assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
      }
      String each = "&fl=" + URLEncoder.encode("name,host,start,end,count", StandardCharsets.UTF_8) + "&cf=";
      for (int round = 0; round < 2; round++) {
        for (int s = 0; s < 20; s++) {
          String q = "name:again AND host:h" + s;
          JsonNode summary = TestHttp.query(server.solrUrl(), q, each
              + URLEncoder.encode("metric{max;count}", StandardCharsets.UTF_8)).at("/response/docs/0");
          JsonNode decoded = TestHttp.query(server.solrUrl(), q, each
              + URLEncoder.encode("metric{avg}", StandardCharsets.UTF_8)).at("/response/docs/0");
          assertEquals(s * 100 + 6, summary.at("/functions/0/value").asDouble(), "round " + round + ": " + summary);
          assertEquals(25, summary.at("/functions/1/value").asInt(), summary.toString());
          assertEquals("h" + s, summary.get("host").asText(), summary.toString());
          for (String field : new String[] {"name", "host", "start", "end", "count"}) {
            assertEquals(decoded.get(field), summary.get(field), field + " of " + q);
          }
        }
      }
    }
  }

  /** More records than are read from doc values at once (RecordReader.BATCH): every batch keeps its records' values. */
  @Test
  void recordsBeyondOneBatchKeepTheirOwnValues() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.toString())).start()) {
      StringBuilder lines = new StringBuilder();
      for (int s = 0; s < 4_500; s++) {
        lines.append("batch,host=h").append((s * 7919) % 4_500).append(" value=").append(s).append(' ')
            .append(T0).append('\n');
      }
      assertEquals(204, TestHttp.post(server.baseUrl() + "/write?precision=ms", lines.toString(), false).statusCode());
      assertEquals(204, TestHttp.post(server.baseUrl() + "/flush", "", false).statusCode());
      String each = "&cj=*&rows=5000&fl=name,host";
      JsonNode fromDocValues = TestHttp.query(server.solrUrl(), "name:batch", each + "&cf="
          + URLEncoder.encode("metric{max}", StandardCharsets.UTF_8)).at("/response/docs");
      JsonNode listed = TestHttp.query(server.solrUrl(), "name:batch", each + "&chronix.keys=true").at("/response/docs");
      assertEquals(4_500, fromDocValues.size());
      assertEquals(4_500, listed.size());
      for (int d = 0; d < fromDocValues.size(); d++) {
        int s = fromDocValues.get(d).at("/functions/0/value").asInt();
        assertEquals("h" + (s * 7919) % 4_500, fromDocValues.get(d).get("host").asText(), fromDocValues.get(d).toString());
        assertEquals(fromDocValues.get(d).get("host"), listed.get(d).get("host"));
      }
    }
  }

  /** Asks the statistics' aggregations alone and with avg (which needs points); both must agree. */
  private static JsonNode assertSameAsDecoded(ChronixServer server, long from, long to) throws Exception {
    return assertSameAsDecoded(server, "name:agg AND start:" + from + " AND end:" + to);
  }

  private static JsonNode assertSameAsDecoded(ChronixServer server, String q) throws Exception {
    JsonNode summary = TestHttp.query(server.solrUrl(), q, "&fl=name,start,end,count&cf="
        + URLEncoder.encode("metric{" + FROM_STATS + "}", StandardCharsets.UTF_8)).at("/response/docs/0");
    JsonNode decoded = TestHttp.query(server.solrUrl(), q, "&fl=name,start,end,count&cf="
        + URLEncoder.encode("metric{" + FROM_STATS + ";avg}", StandardCharsets.UTF_8)).at("/response/docs/0");
    for (String field : new String[] {"start", "end", "count"}) {
      assertEquals(decoded.get(field), summary.get(field), field + " of " + q);
    }
    java.util.Map<String, Double> values = new java.util.LinkedHashMap<>();
    for (int f = 0; f < 7; f++) {
      JsonNode a = summary.at("/functions/" + f);
      JsonNode b = decoded.at("/functions/" + f);
      assertEquals(b.get("name"), a.get("name"));
      double expected = b.get("value").asDouble();
      double actual = a.get("value").asDouble();
      // a sum of partial sums may differ from the running sum in the last bits (docs/query.md)
      assertEquals(expected, actual, a.get("name").asText().equals("sum") ? Math.abs(expected) * 1e-12 : 0,
          a.get("name").asText() + " of " + q);
      values.put(a.get("name").asText(), actual);
    }
    return new com.fasterxml.jackson.databind.ObjectMapper().valueToTree(values);
  }
}
