package io.chronix.benchmarks;

import io.chronix.benchmarks.peers.PeerComparison;

/**
 * {@code benchmarks/run Peers [--quick] [<p4 dir>]}: ours against VictoriaMetrics and InfluxDB on
 * the same data with the same client, written into docs/benchmarks.md ({@link PeerComparison}).
 */
public final class Peers {

  private Peers() {}

  public static void main(String[] args) throws Exception {
    PeerComparison.main(args);
    System.exit(0); // HTTP client threads would keep the JVM up
  }
}
