package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.Precision;
import io.chronix.ingest.protocol.ParseResult;
import io.chronix.ingest.protocol.influx.LineProtocolParser;
import io.chronix.ingest.protocol.prometheus.RemoteWriteParser;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The warm-up's requests are what the server's parsers take whole, in the shapes they promise. */
class WarmUpLoadTest {

  private static final long NOW_MS = 1_764_000_000_000L;

  @Test
  void lineProtocolRunsThenAFleetEveryLineAccepted() throws Exception {
    List<byte[]> bodies = WarmUpLoad.bodies(3, 2_500, 1_000, 7, 4, NOW_MS * 1_000_000L);
    assertEquals(8 + 4, bodies.size(), "7,500 run lines in bodies of 1,000, then a body a round");
    Map<String, Integer> points = new HashMap<>();
    Map<String, Long> last = new HashMap<>();
    long total = 0;
    for (byte[] body : bodies) {
      ParseResult result = new LineProtocolParser(Precision.NANOSECONDS, 0).parse(body, 0, body.length,
          (key, timestamp, value) -> {
            String series = key.toString();
            points.merge(series, 1, Integer::sum);
            Long before = last.put(series, timestamp);
            assertTrue(before == null || before < timestamp, "in time order: " + series);
            assertTrue(timestamp < NOW_MS * 1_000_000L, "before now: " + series);
            assertTrue(Double.isFinite(value));
          });
      assertFalse(result.hasErrors(), () -> result.errors().toString());
      total += result.points();
    }
    assertEquals(3 * 2_500 + 7 * 10 * 4, total);
    assertEquals(3 + 7 * 10, points.size());
    assertEquals(3, points.values().stream().filter(n -> n == 2_500).count(), "three long runs");
    assertEquals(70, points.values().stream().filter(n -> n == 4).count(), "the fleet: a point a round");
  }

  @Test
  void remoteWriteRequestsOfWholeSeries() throws Exception {
    List<byte[]> bodies = WarmUpLoad.remoteWriteBodies(9, 30, 2, NOW_MS);
    assertEquals(5, bodies.size(), "two series a request, the last one alone");
    Map<String, Integer> samples = new HashMap<>();
    Set<String> names = new HashSet<>();
    for (byte[] body : bodies) {
      ParseResult result = new RemoteWriteParser().parse(body, (key, timestamp, value) -> {
        samples.merge(key.toString(), 1, Integer::sum);
        names.add(key.name());
        assertTrue(timestamp < NOW_MS * 1_000_000L);
      });
      assertFalse(result.hasErrors(), () -> result.errors().toString());
    }
    assertEquals(9, samples.size());
    assertTrue(samples.values().stream().allMatch(n -> n == 30), samples::toString);
    assertEquals(Set.of(WarmUpLoad.MEASUREMENT), names);
  }
}
