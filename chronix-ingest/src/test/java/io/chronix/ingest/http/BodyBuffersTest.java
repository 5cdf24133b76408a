package io.chronix.ingest.http;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What the pool keeps: arrays up to its size limit, as many as it has room for. */
class BodyBuffersTest {

  @Test
  void keepsArraysUpToItsLimitAndNoMoreOfThemThanItsRoom() {
    BodyBuffers buffers = new BodyBuffers();
    byte[] large = new byte[BodyBuffers.KEPT_BYTES + 1];
    buffers.give(large);
    assertNotSame(large, buffers.take(16), "an array beyond the limit is left to the collector");

    byte[] atLimit = new byte[BodyBuffers.KEPT_BYTES];
    buffers.give(atLimit);
    assertSame(atLimit, buffers.take(16));

    byte[] small = new byte[1024];
    buffers.give(small);
    byte[] larger = buffers.take(2048);
    assertNotSame(small, larger, "a kept array too small for the body is not handed out");
    assertTrue(larger.length >= 2048);

    byte[][] given = new byte[BodyBuffers.KEPT_ARRAYS + 1][];
    for (int i = 0; i < given.length; i++) {
      given[i] = new byte[64];
      buffers.give(given[i]);
    }
    for (int i = 0; i < BodyBuffers.KEPT_ARRAYS; i++) {
      assertSame(given[i], buffers.take(64));
    }
    assertNotSame(given[BodyBuffers.KEPT_ARRAYS], buffers.take(64), "no room was left for the last one");
  }
}
