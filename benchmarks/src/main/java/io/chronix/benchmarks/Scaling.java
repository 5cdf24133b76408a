package io.chronix.benchmarks;

import io.chronix.benchmarks.peers.ScalingBenchmark;

/** {@code benchmarks/run Scaling [--quick]}: see {@link ScalingBenchmark}. */
public final class Scaling {

  private Scaling() {}

  public static void main(String[] args) throws Exception {
    ScalingBenchmark.main(args);
  }
}
