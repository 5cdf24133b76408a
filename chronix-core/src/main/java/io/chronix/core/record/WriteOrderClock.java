package io.chronix.core.record;

import java.util.function.LongSupplier;

/**
 * Hands out the write order of records ({@link RecordFields#WRITE_ORDER}): strictly increasing in
 * one process and, across restarts, as long as the wall clock does not go back. Counted like
 * Solr's {@code _version_} (milliseconds shifted left by 20 bits, plus a counter), so records
 * written before the field existed compare correctly with newer ones by their Solr version.
 */
public final class WriteOrderClock {

  private static final int COUNTER_BITS = 20;

  private final LongSupplier millis;
  private long last;

  public WriteOrderClock() {
    this(System::currentTimeMillis);
  }

  WriteOrderClock(LongSupplier millis) {
    this.millis = millis;
  }

  public synchronized long next() {
    long candidate = millis.getAsLong() << COUNTER_BITS;
    last = candidate > last ? candidate : last + 1;
    return last;
  }
}
