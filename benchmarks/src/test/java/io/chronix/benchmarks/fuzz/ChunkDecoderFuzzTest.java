package io.chronix.benchmarks.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.codec.CorruptBlobException;
import io.chronix.core.series.Points;

/**
 * The chunk decoder on arbitrary blobs (a damaged record, or a client's reference series): refused
 * as corrupt, never another exception, and never more than the limits allocate. And encoded points
 * of any values decode to themselves.
 */
class ChunkDecoderFuzzTest {

  private static final ChunkCodec.Limits SMALL = new ChunkCodec.Limits(1 << 20, 100_000);

  @FuzzTest
  void decode(byte[] blob) {
    try {
      Points points = ChunkCodec.decode(blob, SMALL);
      Findings.check(points.size() <= SMALL.maxPoints(), "decoded " + points.size() + " points past the limit");
    } catch (CorruptBlobException refused) {
      Findings.explained(refused);
    }
  }

  @FuzzTest
  void roundTrip(FuzzedDataProvider data) {
    Points points = new Points();
    long time = data.consumeLong(-(1L << 61), 1L << 61);
    int count = data.consumeInt(0, 2000);
    for (int i = 0; i < count && data.remainingBytes() > 0; i++) {
      time += data.consumeInt(0, Integer.MAX_VALUE);
      points.add(time, data.consumeDouble());
    }
    ChunkCodec codec = ChunkCodec.lossless();
    Points decoded = ChunkCodec.decode(codec.encode(points));
    Findings.check(decoded.size() == points.size(), "size " + decoded.size() + " after encoding " + points.size());
    for (int i = 0; i < points.size(); i++) {
      Findings.check(decoded.timestamp(i) == points.timestamp(i), "timestamp " + i + " changed");
      Findings.check(Double.doubleToRawLongBits(decoded.value(i)) == Double.doubleToRawLongBits(points.value(i))
          || (Double.isNaN(decoded.value(i)) && Double.isNaN(points.value(i))), "value " + i + " changed");
    }
  }
}
