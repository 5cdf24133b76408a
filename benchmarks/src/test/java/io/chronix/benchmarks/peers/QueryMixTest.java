package io.chronix.benchmarks.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.core.series.Points;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueryMixTest {

  private static final long HOUR = 3_600_000L;

  /**
   * The liveness endpoint is a group of its own, first in the tables, asked as often as a query of
   * each group in every round; the other groups keep their series and windows.
   */
  @Test
  void eachRoundPingsAsOftenAsItAsksAGroup() throws Exception {
    List<SeriesRef> series = List.of(SeriesRef.of("cpu", Map.of("host", "a"), 0, 6 * HOUR),
        SeriesRef.of("mem", Map.of("host", "b"), HOUR, 9 * HOUR));
    QueryMix mix = QueryMix.plan(series, 3, 42);
    List<String> groups = new ArrayList<>(mix.byGroup().keySet());
    assertEquals("ping", groups.get(0));
    assertEquals(List.of("ping", "raw 1 h", "raw 2 h", "raw 4 h", "raw whole", "max 1 h", "max 2 h", "max 4 h",
        "max whole", "outlier 1 h", "outlier 2 h", "outlier 4 h", "outlier whole", "trend 1 h", "trend 2 h",
        "trend 4 h", "trend whole"), groups);
    mix.byGroup().forEach((group, queries) -> assertEquals(3, queries.size(), group));

    Counting server = new Counting();
    QueryMix.Latencies latencies = mix.run(server, 2, 4);
    assertEquals((2 + 4) * 3, server.pings, "pings: warm-up and measured rounds, three a round");
    assertEquals((2 + 4) * 3 * (4 + 8), server.raws, "raw fetches: four ranges of raw and the eight of the analyses");
    assertEquals(4 * 3, latencies.nanos().get("ping").length, "measured pings");
    assertEquals(List.of(), mix.disagreements());
  }

  /** A server that answers from nothing and counts what it was asked. */
  private static final class Counting implements PeerServer {
    int pings;
    int raws;

    @Override
    public void ping() {
      pings++;
    }

    @Override
    public Points raw(SeriesRef series, long from, long to) {
      raws++;
      Points points = new Points();
      for (long t = from; t <= to; t += 60_000) {
        points.add(t * 1_000_000L, 1);
      }
      return points;
    }

    @Override
    public double max(SeriesRef series, long from, long to) {
      return 1;
    }

    @Override
    public String name() {
      return "counting";
    }

    @Override
    public long pid() {
      return 0;
    }

    @Override
    public Path dataDir() {
      return null;
    }

    @Override
    public URI lineProtocolWrite() {
      return null;
    }

    @Override
    public URI remoteWrite() {
      return null;
    }

    @Override
    public void flush() {}

    @Override
    public void stop() {}

    @Override
    public void close() {}
  }
}
