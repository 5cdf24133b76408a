package io.chronix.analysis.promql.engine;

/**
 * Prometheus' staleness marker: a NaN with a bit pattern of its own, written when a series ends.
 * The store keeps it bit for bit like any other value; only the engine gives it meaning.
 */
public final class StaleMarker {

  public static final long BITS = 0x7ff0000000000002L;
  public static final double VALUE = Double.longBitsToDouble(BITS);

  private StaleMarker() {}

  public static boolean is(double value) {
    return Double.doubleToRawLongBits(value) == BITS;
  }
}
