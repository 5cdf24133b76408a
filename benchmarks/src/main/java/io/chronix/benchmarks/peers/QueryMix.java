package io.chronix.benchmarks.peers;

import io.chronix.core.series.Points;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The paper's query mix on P4: for each range length (1, 2 and 4 hours, and the whole series) the
 * same random series and windows for every server, asked for the raw points, the maximum, and
 * the outlier and trend analyses. Every answer is compared with the first server's: the point
 * count, the maximum and the verdicts must agree, or the figures would compare different work.
 * Each round also asks each server's liveness endpoint as often as one query of a group: one
 * HTTP round trip through this client, the floor under every query of the server.
 */
final class QueryMix {

  enum Kind { PING, RAW, MAX, OUTLIER, TREND }

  /** A query of a series' window; a ping has neither (a null series). */
  record Query(Kind kind, String range, SeriesRef series, long from, long to) {
    String group() {
      return kind == Kind.PING ? "ping" : kind.name().toLowerCase() + " " + range;
    }
  }

  /**
   * Latencies of one server, per group (kind and range), over all measured rounds; each group's
   * total in each measured round; and the latencies of the first warm-up round (a fresh JVM still
   * compiles its query path then).
   */
  record Latencies(Map<String, long[]> nanos, Map<String, long[]> roundTotals, Map<String, long[]> firstRound) {}

  private static final long HOUR = 3_600_000L;

  private final List<Query> queries;
  private final Map<Query, Object> expected = new LinkedHashMap<>();
  private final List<String> disagreements = new ArrayList<>();

  private QueryMix(List<Query> queries) {
    this.queries = queries;
  }

  /** {@code perRange} random series (seeded) with a random window of each length inside their span. */
  static QueryMix plan(List<SeriesRef> series, int perRange, long seed) {
    Random random = new Random(seed);
    // InfluxDB 1.6 keeps a line-protocol "\\" as two characters, so a name with a backslash would
    // be a different series there: such series (a few unix metrics) are left out of the mix
    List<SeriesRef> longEnough = series.stream().filter(s -> s.lastMillis() - s.firstMillis() >= 4 * HOUR)
        .filter(s -> !(s.metric() + s.tags()).contains("\\")).toList();
    if (longEnough.isEmpty()) {
      throw new IllegalStateException("no series spans 4 hours");
    }
    List<Query> queries = new ArrayList<>();
    for (int i = 0; i < perRange; i++) {
      queries.add(new Query(Kind.PING, "", null, 0, 0));
    }
    for (Kind kind : EnumSet.range(Kind.RAW, Kind.TREND)) {
      Random windows = new Random(random.nextLong());
      for (long hours : new long[] {1, 2, 4, 0}) {
        for (int i = 0; i < perRange; i++) {
          SeriesRef pick = longEnough.get(windows.nextInt(longEnough.size()));
          if (hours == 0) {
            queries.add(new Query(kind, "whole", pick, pick.firstMillis(), pick.lastMillis()));
          } else {
            long length = hours * HOUR;
            long from = pick.firstMillis() + (long) (windows.nextDouble() * (pick.lastMillis() - pick.firstMillis() - length));
            queries.add(new Query(kind, hours + " h", pick, from, from + length));
          }
        }
      }
    }
    return new QueryMix(queries);
  }

  Latencies run(PeerServer server, int warmUps, int rounds) throws Exception {
    return runByTurns(List.of(server), warmUps, rounds).get(server.name());
  }

  /**
   * The mix asked of several running servers round after round, a whole round each by turns, the
   * order reversed every round ({@link IngestRounds#order}), warm-up rounds included: each server
   * meets the minutes of this machine the others meet, and keeps its caches for a round as it
   * would alone. Latencies by server name.
   */
  Map<String, Latencies> runByTurns(List<PeerServer> servers, int warmUps, int rounds) throws Exception {
    Map<String, Recorder> recorders = new LinkedHashMap<>();
    servers.forEach(server -> recorders.put(server.name(), new Recorder(rounds)));
    for (int round = -warmUps; round < rounds; round++) {
      for (PeerServer server : turns(servers, round, warmUps)) {
        Recorder recorder = recorders.get(server.name());
        for (Query query : queries) {
          long start = System.nanoTime();
          Object answer = ask(server, query);
          long nanos = System.nanoTime() - start;
          check(server, query, answer);
          recorder.record(query.group(), round, round == -warmUps, nanos);
        }
      }
    }
    Map<String, Latencies> latencies = new LinkedHashMap<>();
    recorders.forEach((name, recorder) -> latencies.put(name, recorder.latencies()));
    return latencies;
  }

  /**
   * The servers in the order they take measured round {@code round} (warm-up rounds below 0):
   * reversed every round, counted from the first warm-up round.
   */
  static <T> List<T> turns(List<T> servers, int round, int warmUps) {
    return IngestRounds.order(servers, round + warmUps);
  }

  /** One server's latencies as its rounds go: measured rounds from 0, warm-up rounds before. */
  private static final class Recorder {
    private final int rounds;
    private final Map<String, List<Long>> byGroup = new LinkedHashMap<>();
    private final Map<String, List<Long>> first = new LinkedHashMap<>();
    private final Map<String, long[]> totals = new LinkedHashMap<>();

    Recorder(int rounds) {
      this.rounds = rounds;
    }

    void record(String group, int round, boolean firstRound, long nanos) {
      if (firstRound) {
        first.computeIfAbsent(group, g -> new ArrayList<>()).add(nanos);
      }
      if (round >= 0) {
        byGroup.computeIfAbsent(group, g -> new ArrayList<>()).add(nanos);
        totals.computeIfAbsent(group, g -> new long[rounds])[round] += nanos;
      }
    }

    Latencies latencies() {
      return new Latencies(sorted(byGroup), totals, sorted(first));
    }
  }

  private static Map<String, long[]> sorted(Map<String, List<Long>> byGroup) {
    Map<String, long[]> nanos = new LinkedHashMap<>();
    byGroup.forEach((group, list) -> nanos.put(group, list.stream().mapToLong(Long::longValue).sorted().toArray()));
    return nanos;
  }

  List<String> disagreements() {
    return disagreements;
  }

  int perGroup() {
    return (int) queries.stream().filter(q -> q.group().equals(queries.get(0).group())).count();
  }

  /** The queries by group, in the mix's order. */
  Map<String, List<Query>> byGroup() {
    Map<String, List<Query>> groups = new LinkedHashMap<>();
    queries.forEach(query -> groups.computeIfAbsent(query.group(), g -> new ArrayList<>()).add(query));
    return groups;
  }

  static Object ask(PeerServer server, Query query) throws Exception {
    return switch (query.kind()) {
      case PING -> {
        server.ping();
        yield Boolean.TRUE;
      }
      case RAW -> {
        Points points = server.raw(query.series(), query.from(), query.to());
        yield points.size();
      }
      case MAX -> server.max(query.series(), query.from(), query.to());
      case OUTLIER -> server.analysis("outlier", query.series(), query.from(), query.to());
      case TREND -> server.analysis("trend", query.series(), query.from(), query.to());
    };
  }

  private void check(PeerServer server, Query query, Object answer) {
    Object first = expected.putIfAbsent(query, answer);
    if (first != null && !agree(first, answer) && disagreements.size() < 20) {
      String what = query.series() == null ? ""
          : " " + query.series().metric() + query.series().tags() + " [" + query.from() + ", " + query.to() + "]";
      disagreements.add(server.name() + " " + query.group() + what + ": " + answer + " where the first server said " + first);
    }
  }

  /** VictoriaMetrics keeps values as decimals of limited precision: maxima agree to 1e-9 relative. */
  private static boolean agree(Object first, Object answer) {
    if (first instanceof Double a && answer instanceof Double b) {
      return a.equals(b) || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
    }
    return first.equals(answer);
  }

  static double percentile(long[] sorted, double q) {
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)] / 1e6;
  }

  static double medianMillis(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2] / 1e6;
  }
}
