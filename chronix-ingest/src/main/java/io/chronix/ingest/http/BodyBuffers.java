package io.chronix.ingest.http;

import java.util.concurrent.ArrayBlockingQueue;

/**
 * Arrays kept for the next request bodies of one endpoint: a 10,000-line write read its body
 * into an array of its own, a quarter of what the write path allocated, and each collection this
 * caused copied the buffers' young points once more. A few arrays of moderate size are kept, so
 * the pool holds at most {@value #KEPT_ARRAYS} times {@value #KEPT_BYTES} bytes, however many
 * threads take from it; arrays in use are counted against the bodies' budget like any body.
 */
public final class BodyBuffers {

  /** Arrays larger than this are left to the collector. */
  static final int KEPT_BYTES = 2 << 20;
  static final int KEPT_ARRAYS = 4;
  private static final int SMALLEST = 1 << 12;

  private final ArrayBlockingQueue<byte[]> idle = new ArrayBlockingQueue<>(KEPT_ARRAYS);

  /** An array of at least {@code bytes} bytes, with whatever an earlier body left in it. */
  public byte[] take(int bytes) {
    byte[] kept = idle.poll();
    if (kept != null && kept.length >= bytes) {
      return kept;
    }
    // a kept array too small is dropped: the larger one made now takes its place when given back
    return new byte[Math.max(bytes, SMALLEST)];
  }

  /** Gives an array back once nothing reads it any more. */
  public void give(byte[] array) {
    if (array.length <= KEPT_BYTES) {
      idle.offer(array);
    }
  }
}
