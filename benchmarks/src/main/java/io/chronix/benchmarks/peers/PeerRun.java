package io.chronix.benchmarks.peers;

import io.chronix.benchmarks.ProcessStats;
import java.util.LinkedHashMap;
import java.util.Map;

/** What one server did in the comparison: each load, its data directory, its query latencies. */
final class PeerRun {

  /** One load: time to the last acknowledgement, then the flush, and what the process spent. */
  record Load(IngestLoad.Outcome outcome, long flushNanos, ProcessStats cost) {}

  final String name;
  final String version;
  final Map<String, Load> loads = new LinkedHashMap<>();
  long diskBytes;
  Map<String, Long> diskSplit = Map.of();
  QueryMix.Latencies latencies;
  ProcessStats queryCost;

  PeerRun(String name, String version) {
    this.name = name;
    this.version = version;
  }
}
