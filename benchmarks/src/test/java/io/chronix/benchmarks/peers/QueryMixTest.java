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

  /**
   * Servers side by side take turns a whole round at a time, the order reversed every round from
   * the first warm-up round on; each keeps its own latencies and round totals.
   */
  @Test
  void serversSideBySideTakeTurnsByRound() throws Exception {
    List<SeriesRef> series = List.of(SeriesRef.of("cpu", Map.of("host", "a"), 0, 6 * HOUR));
    QueryMix mix = QueryMix.plan(series, 2, 7);
    List<String> pings = new ArrayList<>();
    Counting a = new Counting("a", pings);
    Counting b = new Counting("b", pings);
    Map<String, QueryMix.Latencies> latencies = mix.runByTurns(List.of(a, b), 1, 2);
    assertEquals(List.of("a", "a", "b", "b", "b", "b", "a", "a", "a", "a", "b", "b"), pings,
        "one warm-up round and two measured, two pings a round, the order reversed every round");
    assertEquals(List.of("a", "b"), new ArrayList<>(latencies.keySet()));
    for (QueryMix.Latencies each : latencies.values()) {
      assertEquals(2 * 2, each.nanos().get("raw 1 h").length, "measured rounds only");
      assertEquals(2, each.roundTotals().get("raw 1 h").length, "a total for each measured round");
      assertEquals(2, each.firstRound().get("raw 1 h").length, "the first warm-up round");
    }
    assertEquals(3 * (2 * (4 + 8)), a.raws, "every query in every round, warm-up included");
    assertEquals(a.raws, b.raws);
  }

  /** A round counts for a server when its group's total is at most the reference's, a tie included. */
  @Test
  void roundsAtMostTheReferenceCountTies() {
    QueryMix.Latencies reference = new QueryMix.Latencies(Map.of(), Map.of("max 1 h", new long[] {10, 20, 30, 40}),
        Map.of());
    QueryMix.Latencies ours = new QueryMix.Latencies(Map.of(), Map.of("max 1 h", new long[] {9, 20, 31, 50}),
        Map.of());
    QueryRounds rounds = new QueryRounds(Map.of("ours", ours, "theirs", reference), Map.of(),
        List.of("theirs", "ours", "theirs", "ours"));
    assertEquals(2, rounds.roundsAtMost("ours", "theirs", "max 1 h"));
    assertEquals(3, rounds.roundsAtMost("theirs", "ours", "max 1 h"));
    assertEquals(4, rounds.rounds());
  }

  /** A server that answers from nothing and counts what it was asked. */
  private static final class Counting implements PeerServer {
    private final String name;
    private final List<String> pingLog;
    int pings;
    int raws;

    Counting() {
      this("counting", new ArrayList<>());
    }

    Counting(String name, List<String> pingLog) {
      this.name = name;
      this.pingLog = pingLog;
    }

    @Override
    public void ping() {
      pings++;
      pingLog.add(name);
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
      return name;
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
