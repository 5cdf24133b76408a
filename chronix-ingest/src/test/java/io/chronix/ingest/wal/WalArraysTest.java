package io.chronix.ingest.wal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.codec.ByteWriter;
import io.chronix.core.codec.CorruptBlobException;
import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.ValueType;
import io.chronix.ingest.pipeline.PointBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Array points in the log (segment version 3), and the version 2 segments written before them. */
class WalArraysTest {

  private static final SeriesKey CPUS = new SeriesKey("cpu_usage", ValueType.ARRAY.typeName(), Map.of("host", "a"));
  private static final SeriesKey IDLE = SeriesKey.metric("cpu_idle", Map.of("host", "a"));

  @TempDir Path dir;

  private WriteAheadLog open() throws IOException {
    return new WriteAheadLog(dir, 1 << 20, FsyncPolicy.ALWAYS, 50, new FaultyFiles(), () -> 0);
  }

  private static List<PointBatch> replay(WriteAheadLog wal) throws IOException {
    List<PointBatch> batches = new ArrayList<>();
    wal.replay((batch, segment) -> batches.add(batch));
    return batches;
  }

  @Test
  void arraysComeBackBitForBitBesideOtherTypes() throws IOException {
    PointBatch batch = new PointBatch();
    batch.acceptArray(CPUS, 1_000, new double[] {0.5, Double.longBitsToDouble(0x7ff8_0000_0000_0abcL), -0.0});
    batch.accept(IDLE, 1_000, 3);
    batch.acceptArray(CPUS, 2_000, new double[0]);
    try (WriteAheadLog wal = open()) {
      replay(wal);
      wal.append(batch);
    }
    try (WriteAheadLog wal = open()) {
      PointBatch read = replay(wal).get(0);
      assertEquals(3, read.size());
      assertEquals(CPUS, read.key(0));
      assertEquals(ValueType.ARRAY, read.key(0).valueType());
      assertEquals(0x7ff8_0000_0000_0abcL, Double.doubleToRawLongBits(read.array(0)[1]), "NaN payload kept");
      assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(read.array(0)[2]));
      assertEquals(3.0, read.value(1));
      assertArrayEquals(new double[0], read.array(2));
    }
    byte[] segment = Files.readAllBytes(dir.resolve(String.format("segment-%020d.wal", 1)));
    assertEquals(WalFormat.VERSION, segment[WalFormat.MAGIC.length], "segments with arrays are version 3 or later");
    assertTrue(WalFormat.VERSION >= 3);
  }

  /** Segments of versions 2 and 3 hold every series key in every entry; both replay as before. */
  @Test
  void versionTwoAndThreeSegmentsStillReplay() throws IOException {
    PointBatch batch = new PointBatch();
    batch.accept(IDLE, 1_000, 7);
    batch.acceptArray(CPUS, 1_000, new double[] {1, 2});
    for (int version : new int[] {WalFormat.V2, WalFormat.V3}) {
      byte[] payload = WalEntries.encode(batch);
      byte[] framed = new byte[WalFormat.FRAME_HEADER + payload.length];
      System.arraycopy(payload, 0, framed, WalFormat.FRAME_HEADER, payload.length);
      WalFormat.frame(framed, framed.length, batch.size());
      ByteBuffer segment = ByteBuffer.allocate(WalFormat.SEGMENT_HEADER + framed.length);
      segment.put(WalFormat.MAGIC).put((byte) version).put(framed);
      Path file = dir.resolve(String.format("segment-%020d.wal", version));
      Files.write(file, segment.array());
      try (WriteAheadLog wal = open()) {
        PointBatch read = replay(wal).get(0);
        assertEquals(7.0, read.value(0), "version " + version);
        assertArrayEquals(new double[] {1, 2}, read.array(1));
      }
      Files.delete(file);
    }
  }

  @Test
  void aForgedArrayLengthIsRefusedBeforeAllocating() {
    ByteWriter entry = new ByteWriter(64);
    entry.writeVarLong(1);
    byte[] key = new KeyEncodings().of(CPUS);
    entry.writeBytes(key, 0, key.length);
    entry.writeVarLong(1);
    entry.writeVarLong(0);
    entry.writeZigZag(1_000);
    entry.writeVarLong(1L << 40);
    byte[] payload = entry.toByteArray();
    assertThrows(CorruptBlobException.class, () -> WalEntries.decode(payload));
  }
}
