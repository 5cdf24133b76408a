package io.chronix.core.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ByteWriterTest {

  @Test
  void longsVarintsAndZigZagsReadBackAcrossGrowth() {
    Random random = new Random(7);
    long[] values = new long[5_000];
    for (int i = 0; i < values.length; i++) {
      int bits = random.nextInt(65);
      values[i] = bits == 64 ? random.nextLong() : random.nextLong() >> (64 - Math.max(1, bits));
    }
    values[0] = Long.MIN_VALUE;
    values[1] = Long.MAX_VALUE;
    values[2] = -1;
    ByteWriter out = new ByteWriter(1); // grows many times on the way
    for (long value : values) {
      out.writeLong(value);
      out.writeVarLong(value);
      out.writeZigZag(value);
    }
    ByteReader in = new ByteReader(out.array(), 0, out.size());
    for (long value : values) {
      assertEquals(value, in.readLong());
      assertEquals(value, in.readVarLong());
      assertEquals(value, in.readZigZag());
    }
    assertFalse(in.hasRemaining());
  }

  /** The one call for a log entry's point writes the bytes of its three calls, across growth. */
  @Test
  void aPointsThreeFieldsInOneCallAreTheThreeCallsBytes() {
    Random random = new Random(11);
    ByteWriter one = new ByteWriter(1);
    ByteWriter three = new ByteWriter(1);
    for (int i = 0; i < 5_000; i++) {
      long[] fields = new long[3];
      for (int f = 0; f < 3; f++) {
        int bits = random.nextInt(65);
        fields[f] = bits == 64 ? random.nextLong() : random.nextLong() >> (64 - Math.max(1, bits));
      }
      if (i < 4) {
        fields[i % 3] = i < 3 ? Long.MIN_VALUE : Long.MAX_VALUE;
      }
      one.writeVarLongZigZagLong(fields[0], fields[1], fields[2]);
      three.writeVarLong(fields[0]);
      three.writeZigZag(fields[1]);
      three.writeLong(fields[2]);
    }
    assertArrayEquals(three.toByteArray(), one.toByteArray());
  }

  @Test
  void longsAreBigEndianAndVarintsSevenBitsLowFirst() {
    ByteWriter out = new ByteWriter(16);
    out.writeLong(0x0102030405060708L);
    out.writeVarLong(300);
    out.writeZigZag(-2);
    assertArrayEquals(ByteBuffer.allocate(8).putLong(0x0102030405060708L).array(),
        java.util.Arrays.copyOf(out.array(), 8));
    assertArrayEquals(new byte[] {(byte) 0xAC, 0x02, 0x03}, java.util.Arrays.copyOfRange(out.array(), 8, 11));
  }

  @Test
  void resetEmptiesAndMakesRoom() {
    ByteWriter out = new ByteWriter(16);
    out.writeLong(1);
    out.reset(1000);
    assertEquals(0, out.size());
    assertEquals(true, out.capacity() >= 1000);
  }
}
