package io.chronix.benchmarks.peers;

import io.chronix.benchmarks.ProcessStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The query mix with the servers running side by side and taking turns. In the main pass each
 * server is asked the mix in its own minutes, and this machine's speed moves by 20-40 % between
 * them: two runs of one build gave raw fetches at 0.74-0.92 and at 1.08-1.34 of VictoriaMetrics'
 * median. Here every server gets a fresh data directory and P4 as line protocol (flushed, the
 * directory left to settle), then all of them stay up and are asked the mix a round at a time by
 * turns ({@link QueryMix#runByTurns}): a group's ratio compares medians of the same minutes.
 */
final class QueryRounds {

  private final Map<String, QueryMix.Latencies> latencies;
  private final Map<String, ProcessStats> cost;
  private final List<String> firstInRound;

  QueryRounds(Map<String, QueryMix.Latencies> latencies, Map<String, ProcessStats> cost,
      List<String> firstInRound) {
    this.latencies = latencies;
    this.cost = cost;
    this.firstInRound = firstInRound;
  }

  static QueryRounds run(List<IngestRounds.Contender> contenders, Workloads workloads, QueryMix mix, int warmUps,
      int rounds, Duration settleQuiet) throws Exception {
    return startAll(contenders, 0, new ArrayList<>(), workloads, settleQuiet,
        servers -> ask(servers, mix, warmUps, rounds));
  }

  /** The work with every contender from {@code next} on started on a fresh directory holding P4. */
  private static QueryRounds startAll(List<IngestRounds.Contender> contenders, int next, List<PeerServer> started,
      Workloads workloads, Duration settleQuiet, Work work) throws Exception {
    if (next == contenders.size()) {
      return work.on(started);
    }
    IngestRounds.Contender contender = contenders.get(next);
    return PeerComparison.onFreshDirectory(contender.name(), (dataDir, log) -> {
      try (PeerServer server = contender.starter().start(dataDir, log)) {
        System.err.printf("query rounds: %s started, loading P4 as line protocol%n", contender.name());
        PeerComparison.load(server, workloads.p4LineProtocol, server.lineProtocolWrite());
        DirectorySettle.await(dataDir, settleQuiet, Duration.ofMinutes(3));
        started.add(server);
        try {
          return startAll(contenders, next + 1, started, workloads, settleQuiet, work);
        } finally {
          server.stop();
        }
      }
    });
  }

  private static QueryRounds ask(List<PeerServer> servers, QueryMix mix, int warmUps, int rounds) throws Exception {
    Map<String, ProcessStats> before = new LinkedHashMap<>();
    for (PeerServer server : servers) {
      ProcessStats.resetPeak(server.pid());
      before.put(server.name(), ProcessStats.of(server.pid()));
    }
    System.err.printf("query rounds: %d warm-up and %d measured rounds by turns%n", warmUps, rounds);
    Map<String, QueryMix.Latencies> latencies = mix.runByTurns(servers, warmUps, rounds);
    Map<String, ProcessStats> cost = new LinkedHashMap<>();
    for (PeerServer server : servers) {
      cost.put(server.name(), ProcessStats.of(server.pid()).since(before.get(server.name())));
    }
    List<String> first = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      first.add(QueryMix.turns(servers, round, warmUps).get(0).name());
    }
    return new QueryRounds(latencies, cost, first);
  }

  private interface Work {
    QueryRounds on(List<PeerServer> servers) throws Exception;
  }

  int rounds() {
    return firstInRound.size();
  }

  /** Which server went first in each measured round. */
  List<String> firstInRound() {
    return firstInRound;
  }

  QueryMix.Latencies latencies(String server) {
    return latencies.get(server);
  }

  /** CPU seconds and peak resident memory of a server over all the rounds, its idle turns included. */
  ProcessStats cost(String server) {
    return cost.get(server);
  }

  /**
   * In how many measured rounds the group's queries took {@code server} at most as long in all as
   * {@code reference}.
   */
  int roundsAtMost(String server, String reference, String group) {
    long[] ours = latencies.get(server).roundTotals().get(group);
    long[] theirs = latencies.get(reference).roundTotals().get(group);
    int count = 0;
    for (int r = 0; r < ours.length; r++) {
      if (ours[r] <= theirs[r]) {
        count++;
      }
    }
    return count;
  }
}
