package io.chronix.ingest.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.SeriesOrigin;
import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.TestHttp;
import io.chronix.ingest.buffer.SeriesBuffers;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.wal.SegmentLedger;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replay drops the points the store already holds, however many records hold them: here three
 * records of one series, with the filter asking for one record first, so that it must ask again for
 * the rest.
 */
class ReplayFilterTest {

  private static final long T0 = 1_700_000_000_000L;

  @TempDir Path dataDir;

  @Test
  void pointsOfEveryOverlappingRecordAreDropped() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.toString()).with("compaction.interval", "0")).start();
        SolrClient solr = new Http2SolrClient.Builder(server.solrUrl()).build()) {
      for (int record = 0; record < 3; record++) {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 4; i++) {
          lines.append("replayed,host=a value=").append(record * 4 + i).append(' ').append(T0 + 1000L * (record * 4 + i))
              .append('\n');
        }
        assertEquals(204, post(server.baseUrl() + "/write?precision=ms", lines.toString()));
        assertEquals(204, post(server.baseUrl() + "/flush", ""));
      }
      // the key the line protocol gave the series: its tag, and where it came from
      SeriesKey key = SeriesKey.metric("replayed", Map.of("host", "a", SeriesOrigin.PROTOCOL, SeriesOrigin.INFLUX,
          SeriesOrigin.INFLUX_MEASUREMENT, "replayed", SeriesOrigin.INFLUX_FIELD, "value"));
      SeriesBuffers buffers = new SeriesBuffers(10_000, Long.MAX_VALUE, Duration.ofHours(1), (k, points) -> points,
          Runnable::run, new SegmentLedger());
      for (int i = 0; i < 14; i++) { // the twelve stored points, and two the store does not have
        buffers.add(key, nanos(T0 + 1000L * i), i);
      }

      assertEquals(12, new ReplayFilter(solr, "chronix", 1).apply(buffers));

      Points kept = buffers.snapshot(key);
      assertEquals(2, kept.size());
      assertEquals(nanos(T0 + 12_000), kept.timestamp(0));
      assertEquals(nanos(T0 + 13_000), kept.timestamp(1));
    }
  }

  /** Buffers hold timestamps in nanoseconds. */
  private static long nanos(long millis) {
    return millis * 1_000_000;
  }

  private static int post(String url, String body) throws Exception {
    return TestHttp.CLIENT.send(HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofString(body))
        .build(), HttpResponse.BodyHandlers.discarding()).statusCode();
  }
}
