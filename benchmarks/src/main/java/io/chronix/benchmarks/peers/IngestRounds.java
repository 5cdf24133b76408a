package io.chronix.benchmarks.peers;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.math3.stat.descriptive.rank.Median;

/**
 * The three ingest loads, round after round, each round on freshly started servers that take turns,
 * the order reversed every round. This machine's speed changes by 20-40 % from one minute to the
 * next, and a load of P4 lasts about a second, so one pass per server mostly tells which server met
 * the faster minutes; the median over rounds taken by turns does not. A round per server: start on an empty directory, P4 as line protocol (the first load
 * after start, as in the main pass), the 10,000-series stream, P4 through remote write (both as
 * new series), each timed to its last acknowledgement and flushed; then a clean stop.
 */
final class IngestRounds {

  /** The loads of a round, in the order they are sent. */
  static final List<String> LOADS = List.of("p4", "synthetic", "remote");

  /** A server in the rounds: its name and how it starts. */
  record Contender(String name, PeerComparison.Starter starter) {}

  /** Server name, then load, then that load's outcome in each round in round order. */
  private final Map<String, Map<String, List<PeerRun.Load>>> outcomes = new LinkedHashMap<>();
  private final List<String> firstInRound = new ArrayList<>();

  private IngestRounds() {}

  /** The servers of round {@code round} (from 0) in the order they run: reversed every other round. */
  static <T> List<T> order(List<T> servers, int round) {
    List<T> ordered = new ArrayList<>(servers);
    if (round % 2 == 1) {
      Collections.reverse(ordered);
    }
    return ordered;
  }

  static IngestRounds run(List<Contender> contenders, Workloads workloads, int rounds) throws Exception {
    IngestRounds result = new IngestRounds();
    for (Contender contender : contenders) {
      Map<String, List<PeerRun.Load>> byLoad = new LinkedHashMap<>();
      LOADS.forEach(load -> byLoad.put(load, new ArrayList<>()));
      result.outcomes.put(contender.name(), byLoad);
    }
    for (int round = 0; round < rounds; round++) {
      List<Contender> ordered = order(contenders, round);
      result.firstInRound.add(ordered.get(0).name());
      for (Contender contender : ordered) {
        System.err.printf("ingest round %d of %d: %s%n", round + 1, rounds, contender.name());
        Map<String, PeerRun.Load> loads = oneRound(contender, workloads);
        loads.forEach((load, outcome) -> result.outcomes.get(contender.name()).get(load).add(outcome));
      }
    }
    return result;
  }

  private static Map<String, PeerRun.Load> oneRound(Contender contender, Workloads workloads) throws Exception {
    return PeerComparison.onFreshDirectory(contender.name(), (dataDir, log) -> {
      try (PeerServer server = contender.starter().start(dataDir, log)) {
        Map<String, PeerRun.Load> loads = new LinkedHashMap<>();
        loads.put("p4", PeerComparison.load(server, workloads.p4LineProtocol, server.lineProtocolWrite()));
        loads.put("synthetic", PeerComparison.load(server, workloads.synthetic, server.lineProtocolWrite()));
        loads.put("remote", PeerComparison.load(server, workloads.p4RemoteWrite, server.remoteWrite()));
        server.stop();
        return loads;
      }
    });
  }

  int rounds() {
    return firstInRound.size();
  }

  List<String> firstInRound() {
    return firstInRound;
  }

  /** Values per second of a server's load in each round, in round order. */
  double[] valuesPerSecond(String server, String load, IngestLoad ingest) {
    return outcomes.get(server).get(load).stream()
        .mapToDouble(outcome -> outcome.outcome().valuesPerSecond(ingest.values())).toArray();
  }

  /** CPU seconds of a server's load in each round, in round order. */
  double[] cpuSeconds(String server, String load) {
    return outcomes.get(server).get(load).stream().mapToDouble(outcome -> outcome.cost().cpuSeconds()).toArray();
  }

  /** The median of the values; of an even count, the mean of the middle two (Commons Math's). */
  static double median(double[] values) {
    return new Median().evaluate(values);
  }
}
