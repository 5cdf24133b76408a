package io.chronix.ingest.protocol.prometheus;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A TimeSeries' samples read straight from the body's bytes, as many in a row as take the plain
 * form every encoder writes: {@code Sample} messages holding only the value (fixed64, field 1) and
 * the timestamp (varint, field 2), each field at most as long as its wire type allows. Anything else
 * (an unknown field, a broken length, a varint running past its sample) is left to protobuf's
 * reader, which decodes it or reports it as before.
 *
 * <p>Why: through {@code CodedInputStream} a sample took eight calls (its length, a limit pushed and
 * popped, three tags, value, timestamp), which the server's quick JIT compiler does not inline: a
 * quarter of a remote-write request's thread (docs/benchmarks.md, "The quick compiler's hot loops").
 */
final class SampleRun {

  /** A Sample's tags (field number << 3 | wire type) and the TimeSeries' samples field's. */
  private static final byte VALUE = 1 << 3 | 1;
  private static final byte TIMESTAMP = 2 << 3;
  private static final byte SAMPLE = 2 << 3 | 2;
  private static final int MAX_VARINT_BYTES = 10;
  /** A fixed64 field: eight bytes, least significant first (a method of shifts was a call a sample). */
  private static final VarHandle LITTLE_ENDIAN_LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private SampleRun() {}

  /**
   * Stages the plain samples from {@code from}, the first one's length (its tag already read), on
   * through those that follow it directly.
   *
   * @param end the end of the series' message, at most the body's
   * @return the bytes of the samples taken, ending where protobuf's reader carries on (before a
   *     tag); 0 where the first sample is not plain
   */
  static int take(byte[] body, int from, int end, RemoteWriteParser.Staged staged) {
    int taken = 0;
    int p = from;
    while (true) {
      long length = 0;
      int shift = 0;
      int q = p;
      while (true) { // the sample's length: a small varint
        if (q >= end || shift >= 35) {
          return taken;
        }
        byte b = body[q++];
        length |= (long) (b & 0x7F) << shift;
        if (b >= 0) {
          break;
        }
        shift += 7;
      }
      if (length > end - q) {
        return taken;
      }
      int sampleEnd = q + (int) length;
      long valueBits = 0;
      long millis = 0;
      while (q < sampleEnd) {
        byte tag = body[q++];
        if (tag == VALUE && sampleEnd - q >= Long.BYTES) {
          valueBits = (long) LITTLE_ENDIAN_LONGS.get(body, q);
          q += Long.BYTES;
        } else if (tag == TIMESTAMP) {
          long value = 0;
          shift = 0;
          while (true) {
            if (q >= sampleEnd || shift >= 7 * MAX_VARINT_BYTES) {
              return taken;
            }
            byte b = body[q++];
            value |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
              break;
            }
            shift += 7;
          }
          millis = value;
        } else {
          return taken;
        }
      }
      staged.add(millis, Double.longBitsToDouble(valueBits));
      taken = sampleEnd - from;
      if (sampleEnd < end && body[sampleEnd] == SAMPLE) {
        p = sampleEnd + 1;
      } else {
        return taken;
      }
    }
  }
}
