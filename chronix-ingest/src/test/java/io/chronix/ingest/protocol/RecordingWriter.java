package io.chronix.ingest.protocol;

import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.pipeline.BatchWriter;
import io.chronix.ingest.pipeline.OverloadedException;
import io.chronix.ingest.pipeline.PointBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** A BatchWriter for tests: keeps what it stored, and can refuse the first writes as overloaded. */
public final class RecordingWriter implements BatchWriter {

  public record Point(SeriesKey key, long timestamp, double value) {}

  private final List<Point> points = new ArrayList<>();
  private int overloadsLeft;
  private int writes;
  private int refusals;

  public synchronized void overloadNext(int times) {
    overloadsLeft = times;
  }

  @Override
  public synchronized void write(PointBatch batch) throws OverloadedException {
    if (overloadsLeft > 0) {
      overloadsLeft--;
      refusals++;
      throw new OverloadedException("test overload", 0);
    }
    writes++;
    for (int i = 0; i < batch.size(); i++) {
      points.add(new Point(OriginFree.key(batch.key(i)), batch.timestamp(i), batch.value(i)));
    }
    notifyAll();
  }

  public synchronized List<Point> points() {
    return new ArrayList<>(points);
  }

  public synchronized int writes() {
    return writes;
  }

  public synchronized int refusals() {
    return refusals;
  }

  /** Waits up to 10 s for at least {@code count} stored points. */
  public synchronized List<Point> awaitPoints(int count) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (points.size() < count) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError("expected " + count + " points, got " + points.size() + ": " + points);
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return new ArrayList<>(points);
  }

  /** Polls a condition for up to 10 s. */
  public static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(10);
    }
  }
}
