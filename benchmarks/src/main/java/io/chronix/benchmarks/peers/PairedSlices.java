package io.chronix.benchmarks.peers;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A load sent to two servers by turns, a slice of its bodies at a time, the server that goes first
 * changing every slice: each server's summed time, and the slices' own ratios (B's time over A's),
 * sorted. Both servers meet the same seconds of a machine whose speed drifts ({@link PairedLoad}).
 */
record PairedSlices(long nanosA, long nanosB, List<Double> ratios) {

  /** Sends a part of the load to one server; answers the nanoseconds it took. */
  @FunctionalInterface
  interface Side {
    long send(IngestLoad part) throws Exception;
  }

  static PairedSlices send(IngestLoad load, int slice, Side a, Side b) throws Exception {
    if (slice < 1) {
      throw new IllegalArgumentException("a slice needs at least one body, not " + slice);
    }
    long nanosA = 0;
    long nanosB = 0;
    List<Double> ratios = new ArrayList<>();
    int bodies = load.bodies().size();
    for (int from = 0, turn = 0; from < bodies; from += slice, turn++) {
      IngestLoad part = load.slice(from, Math.min(bodies, from + slice));
      boolean aFirst = turn % 2 == 0;
      long first = (aFirst ? a : b).send(part);
      long second = (aFirst ? b : a).send(part);
      long sliceA = aFirst ? first : second;
      long sliceB = aFirst ? second : first;
      nanosA += sliceA;
      nanosB += sliceB;
      ratios.add((double) sliceB / sliceA);
    }
    Collections.sort(ratios);
    return new PairedSlices(nanosA, nanosB, List.copyOf(ratios));
  }

  /** B's summed time over A's. */
  double ratio() {
    return (double) nanosB / nanosA;
  }

  /** The slices' ratio at quantile {@code q} (nearest rank). */
  double sliceRatio(double q) {
    return ratios.get((int) Math.min(ratios.size() - 1, Math.round(q * (ratios.size() - 1))));
  }
}
