package io.chronix.core.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The bulk readers against reading one varint at a time, over runs of one-byte varints and longer ones. */
class ByteReaderTest {

  @Test
  void bulkReadsGiveWhatSingleReadsGive() {
    Random random = new Random(23);
    for (int round = 0; round < 2_000; round++) {
      int count = random.nextInt(80);
      long[] written = new long[count];
      ByteWriter out = new ByteWriter(16);
      int lead = random.nextInt(3);
      for (int i = 0; i < lead; i++) {
        out.writeByte(0x55);
      }
      for (int i = 0; i < count; i++) {
        // mostly one-byte changes (-64..63), now and then a longer one, in runs of any length
        written[i] = random.nextInt(6) > 0 ? random.nextInt(128) - 64
            : random.nextBoolean() ? random.nextLong() : random.nextInt(100_000) - 50_000;
        out.writeZigZag(written[i]);
      }
      int trail = random.nextInt(12);
      for (int i = 0; i < trail; i++) {
        out.writeByte(0x7F);
      }
      byte[] bytes = out.toByteArray();

      long[] changes = new long[count + 2];
      ByteReader bulk = new ByteReader(bytes, lead, bytes.length - lead);
      bulk.readZigZags(changes, 2, count);
      long[] expected = new long[count + 2];
      System.arraycopy(written, 0, expected, 2, count);
      assertArrayEquals(expected, changes, "round " + round);
      if (trail > 0) {
        assertEquals(0x7F, bulk.readByte(), "the reader stops after the last varint");
      }

      double scale = random.nextBoolean() ? 1 : 100;
      double[] decimals = new double[count + 1];
      ByteReader bulkDecimals = new ByteReader(bytes, lead, bytes.length - lead);
      bulkDecimals.readDecimals(decimals, 1, count, scale);
      if (trail > 0) {
        assertEquals(0x7F, bulkDecimals.readByte(), "the decimals' reader stops after the last varint");
      }
      double[] running = new double[count + 1];
      long sum = 0;
      for (int i = 0; i < count; i++) {
        sum += written[i];
        running[i + 1] = sum / scale;
      }
      assertArrayEquals(running, decimals, "round " + round);
    }
  }

  @Test
  void aBlobEndingInsideAVarintIsCorrupt() {
    ByteWriter out = new ByteWriter(16);
    for (int i = 0; i < 20; i++) {
      out.writeZigZag(3);
    }
    out.writeByte(0x80); // a varint's first byte, and nothing after it
    byte[] bytes = out.toByteArray();
    assertThrows(CorruptBlobException.class, () -> new ByteReader(bytes, 0, bytes.length).readZigZags(new long[21], 0, 21));
  }
}
