package io.chronix.ingest.protocol.prometheus;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.ExtensionRegistryLite;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.http.BodyBuffers;
import io.chronix.ingest.protocol.LineError;
import io.chronix.ingest.protocol.MalformedBodyException;
import io.chronix.ingest.protocol.ParseResult;
import io.chronix.ingest.protocol.PointSink;
import io.chronix.ingest.protocol.prometheus.proto.Histogram;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xerial.snappy.Snappy;
import org.xerial.snappy.SnappyError;

/**
 * Prometheus remote write 1.0: a snappy block-compressed (not framed) protobuf
 * {@code prometheus.WriteRequest}.
 *
 * <p>Each time series is named by its {@code __name__} label; its other labels become attributes
 * ({@link PrometheusLabels}). Every float sample
 * is a point, its millisecond timestamp in nanoseconds, its value bit for bit, NaN included,
 * Prometheus' staleness marker too: PromQL ends a series at it instead of 5 minutes later, so the
 * store keeps it like any other value (series queries show it as NaN). Counters, gauges, summaries and classic histograms all arrive as such float
 * series ({@code _bucket}/{@code _sum}/{@code _count} with {@code le}, {@code quantile}). Native
 * histograms become float series too ({@link NativeHistogramPoints}). Exemplars and metric
 * metadata are not stored: they are neither points nor part of a series' identity.
 *
 * <p>A series is taken whole or not at all: one with any error delivers none of its points and is
 * reported by its 1-based index in the request, while the other series are kept. Thread-safe.
 */
public final class RemoteWriteParser {

  private static final Logger LOG = LoggerFactory.getLogger(RemoteWriteParser.class);

  /** Prometheus' staleness marker: a NaN that no computation produces. */
  static final long STALE_NAN_BITS = 0x7ff0000000000002L;

  private static final String NAME_LABEL = PrometheusLabels.NAME_LABEL;
  private static final int MAX_DESCRIBED_CHARS = 200;
  private static final long MAX_MILLIS = Long.MAX_VALUE / 1_000_000L;

  /** Staged requests of at most this many samples are kept for the next request. */
  private static final int KEPT_STAGED_SAMPLES = 1 << 17;

  private final long maxDecodedBytes;
  /**
   * Decompressed bodies and staged samples kept for the next requests: a request's own arrays
   * (the body decompressed, the samples staged and grown once on the way) were most of what P4's
   * remote write allocated, and the collections this caused a third of its server's CPU.
   */
  private final BodyBuffers decompressed = new BodyBuffers();
  private final ArrayBlockingQueue<Staged> idleStaged = new ArrayBlockingQueue<>(2);

  /** No limit but Java's array size on the decompressed body. */
  public RemoteWriteParser() {
    this(Integer.MAX_VALUE - 8);
  }

  /**
   * @param maxDecodedBytes largest decompressed body accepted: snappy expands up to ~21 times, so
   *     a limit on the compressed body alone does not bound memory
   */
  public RemoteWriteParser(long maxDecodedBytes) {
    this.maxDecodedBytes = Math.min(maxDecodedBytes, Integer.MAX_VALUE - 8);
    loadSnappy();
  }

  /**
   * Loads snappy's native library now, with the server: on first use it was unpacked from its jar
   * and compared byte by byte inside the first request (a twentieth of P4's remote-write load).
   * A library that cannot load fails the requests, as it did before.
   */
  private static void loadSnappy() {
    try {
      Snappy.getNativeLibraryVersion();
    } catch (SnappyError | LinkageError e) {
      LOG.warn("snappy's native library did not load; remote write requests will fail: {}", e.toString());
    }
  }

  static boolean isStaleMarker(double value) {
    return Double.doubleToRawLongBits(value) == STALE_NAN_BITS;
  }

  /**
   * @return the points delivered and the series rejected (a {@link LineError}'s number is the
   *     series' 1-based index in the request)
   * @throws MalformedBodyException when the body is not a snappy-compressed WriteRequest or
   *     decompresses to more than the limit; nothing was delivered then
   * @throws IOException from the sink
   */
  public ParseResult parse(byte[] snappyBody, PointSink sink) throws IOException, MalformedBodyException {
    return parse(snappyBody, snappyBody.length, sink);
  }

  /** As {@link #parse(byte[], PointSink)} for the body {@code [0, bodyLength)} of {@code snappyBody}. */
  public ParseResult parse(byte[] snappyBody, int bodyLength, PointSink sink)
      throws IOException, MalformedBodyException {
    int length = decompressedLength(snappyBody, bodyLength);
    byte[] raw = decompressed.take(length);
    // every sample of the request staged first: nothing is delivered unless all of the body decodes.
    // A sample takes about 18 bytes of the message (value, timestamp, their tags and its length):
    // sized for a few more, so that the first requests' arrays need not grow on the way
    Staged staged = takeStaged(length / 16);
    try {
      decompress(snappyBody, bodyLength, raw);
      List<LineError> errors = new ArrayList<>();
      CodedInputStream in = CodedInputStream.newInstance(raw, 0, length);
      int index = 0;
      for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
        if (tag == TIMESERIES) {
          index++;
          int limit = in.pushLimit(in.readRawVarint32());
          readSeries(raw, in, index, staged, errors);
          in.popLimit(limit);
        } else if (!in.skipField(tag)) {
          break;
        }
      }
      return new ParseResult(staged.deliver(sink), errors);
    } catch (InvalidProtocolBufferException e) {
      throw new MalformedBodyException("body is not a protobuf prometheus.WriteRequest: " + e.getMessage(), e);
    } finally {
      decompressed.give(raw); // the sink copied the points; keys and labels are strings of their own
      giveStaged(staged);
    }
  }

  private Staged takeStaged(int samples) {
    Staged kept = idleStaged.poll();
    return kept != null ? kept : new Staged(samples);
  }

  private void giveStaged(Staged staged) {
    if (staged.capacity() <= KEPT_STAGED_SAMPLES) {
      staged.clear();
      idleStaged.offer(staged);
    }
  }

  // WriteRequest, TimeSeries, Label and Sample fields as tags: field number << 3 | wire type
  private static final int TIMESERIES = 1 << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;
  private static final int LABELS = 1 << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;
  private static final int SAMPLES = 2 << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;
  private static final int HISTOGRAMS = 4 << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;
  private static final int LABEL_NAME = 1 << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;
  private static final int LABEL_VALUE = 2 << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;
  private static final int SAMPLE_VALUE = 1 << 3 | WireFormat.WIRETYPE_FIXED64;
  private static final int SAMPLE_TIMESTAMP = 2 << 3 | WireFormat.WIRETYPE_VARINT;

  /**
   * One TimeSeries, read field by field rather than as messages: a message object a sample (and
   * the series' list of them) was most of remote write's decoding. Its samples are staged and kept
   * only when the whole series is good; a bad one is reported by its index.
   */
  private static void readSeries(byte[] raw, CodedInputStream in, int index, Staged staged, List<LineError> errors)
      throws IOException {
    List<String> labels = new ArrayList<>(16);
    List<Histogram> histograms = List.of();
    int mark = staged.size();
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      switch (tag) {
        case LABELS -> {
          int limit = in.pushLimit(in.readRawVarint32());
          String name = "";
          String value = "";
          for (int field = in.readTag(); field != 0; field = in.readTag()) {
            if (field == LABEL_NAME) {
              name = in.readStringRequireUtf8();
            } else if (field == LABEL_VALUE) {
              value = in.readStringRequireUtf8();
            } else if (!in.skipField(field)) {
              break;
            }
          }
          in.popLimit(limit);
          labels.add(name);
          labels.add(value);
        }
        case SAMPLES -> {
          int at = in.getTotalBytesRead(); // the reader's position in raw, which it reads from the start
          // up to the series' end: within raw, as pushLimit refuses a length that runs past it
          int taken = SampleRun.take(raw, at, at + in.getBytesUntilLimit(), staged);
          if (taken > 0) {
            in.skipRawBytes(taken);
            continue;
          }
          int limit = in.pushLimit(in.readRawVarint32());
          double value = 0;
          long millis = 0;
          for (int field = in.readTag(); field != 0; field = in.readTag()) {
            if (field == SAMPLE_VALUE) {
              value = in.readDouble();
            } else if (field == SAMPLE_TIMESTAMP) {
              millis = in.readInt64();
            } else if (!in.skipField(field)) {
              break;
            }
          }
          in.popLimit(limit);
          staged.add(millis, value);
        }
        case HISTOGRAMS -> {
          if (histograms.isEmpty()) {
            histograms = new ArrayList<>(1);
          }
          histograms.add(in.readMessage(Histogram.parser(), ExtensionRegistryLite.getEmptyRegistry()));
        }
        default -> {
          if (!in.skipField(tag)) {
            return;
          }
        }
      }
    }
    try {
      stage(labels, histograms, staged, mark);
    } catch (IllegalArgumentException e) {
      staged.truncate(mark);
      errors.add(new LineError(index, e.getMessage() + " in " + describe(labels)));
    }
  }

  /** The series' staged samples (from {@code mark} on) under its key, and its histograms' points. */
  private static void stage(List<String> labelList, List<Histogram> histograms, Staged staged, int mark)
      throws IOException {
    PrometheusLabels labels = new PrometheusLabels();
    for (int i = 0; i < labelList.size(); i += 2) {
      labels.add(labelList.get(i), labelList.get(i + 1));
    }
    String name = labels.name();
    Map<String, String> attributes = labels.attributes();
    if (staged.size() > mark) {
      staged.toNanos(mark);
      staged.keyFrom(mark, labels.key());
    }
    for (int h = 0; h < histograms.size(); h++) {
      Histogram histogram = histograms.get(h);
      try {
        NativeHistogramPoints.expand(name, attributes, histogram, nanos(histogram.getTimestamp(), "histogram"),
            staged);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("histogram " + (h + 1) + ": " + e.getMessage(), e);
      }
    }
  }

  /**
   * A request's points before delivery, in arrays: each sample's millisecond timestamp (then
   * nanoseconds) and value, and runs of points under one key.
   */
  static final class Staged implements PointSink {
    private long[] timestamps;
    private double[] values;
    private int size;
    private final List<SeriesKey> runKeys = new ArrayList<>();
    private final List<int[]> runBounds = new ArrayList<>();

    Staged(int capacity) {
      timestamps = new long[Math.max(16, capacity)];
      values = new double[timestamps.length];
    }

    int size() {
      return size;
    }

    int capacity() {
      return timestamps.length;
    }

    void clear() {
      size = 0;
      runKeys.clear();
      runBounds.clear();
    }

    void add(long timestamp, double value) {
      if (size == timestamps.length) {
        timestamps = Arrays.copyOf(timestamps, size * 2);
        values = Arrays.copyOf(values, size * 2);
      }
      timestamps[size] = timestamp;
      values[size] = value;
      size++;
    }

    /** The samples from {@code mark} on had millisecond timestamps; checked and made nanoseconds. */
    void toNanos(int mark) {
      for (int i = mark; i < size; i++) {
        long millis = timestamps[i];
        if (!inNanosRange(millis)) { // the message made only then: a string a sample was a tenth of the parse
          throw beyondNanosRange(millis, "sample " + (i - mark + 1));
        }
        timestamps[i] = millis * 1_000_000L;
      }
    }

    /** The points from {@code mark} on belong to {@code key}. */
    void keyFrom(int mark, SeriesKey key) {
      runKeys.add(key);
      runBounds.add(new int[] {mark, size});
    }

    void truncate(int mark) {
      size = mark;
      while (!runBounds.isEmpty() && runBounds.get(runBounds.size() - 1)[0] >= mark) {
        runBounds.remove(runBounds.size() - 1);
        runKeys.remove(runKeys.size() - 1);
      }
    }

    /** A histogram's points, each already under its own key. */
    @Override
    public void accept(SeriesKey key, long timestampNanos, double value) {
      add(timestampNanos, value);
      keyFrom(size - 1, key);
    }

    long deliver(PointSink sink) throws IOException {
      long points = 0;
      for (int r = 0; r < runKeys.size(); r++) {
        SeriesKey key = runKeys.get(r);
        int[] bounds = runBounds.get(r);
        for (int i = bounds[0]; i < bounds[1]; i++) {
          sink.accept(key, timestamps[i], values[i]);
        }
        points += bounds[1] - bounds[0];
      }
      return points;
    }
  }

  /** The length of the body decompressed, checked against the limit before anything is allocated for it. */
  private int decompressedLength(byte[] body, int bodyLength) throws MalformedBodyException {
    int length;
    try {
      // validates the whole stream without allocating, so a forged length header cannot make us
      // allocate before the size check
      if (!Snappy.isValidCompressedBuffer(body, 0, bodyLength)) {
        throw new MalformedBodyException("body is not snappy block-compressed "
            + "(remote write 1.0 sends Content-Encoding: snappy, block format, not framed)", null);
      }
      length = Snappy.uncompressedLength(body, 0, bodyLength);
    } catch (IOException e) {
      throw new MalformedBodyException("body is not snappy block-compressed: " + e.getMessage(), e);
    }
    if (length < 0 || length > maxDecodedBytes) {
      throw MalformedBodyException.tooLarge("decompressed body of " + Integer.toUnsignedLong(length)
          + " bytes exceeds " + maxDecodedBytes + " bytes (http.maxRequestBytes)");
    }
    return length;
  }

  private static void decompress(byte[] body, int bodyLength, byte[] raw) throws MalformedBodyException {
    try {
      Snappy.uncompress(body, 0, bodyLength, raw, 0);
    } catch (IOException e) {
      throw new MalformedBodyException("body is not snappy block-compressed: " + e.getMessage(), e);
    }
  }

  private static long nanos(long millis, String what) {
    if (!inNanosRange(millis)) {
      throw beyondNanosRange(millis, what);
    }
    return millis * 1_000_000L;
  }

  private static boolean inNanosRange(long millis) {
    return millis <= MAX_MILLIS && millis >= -MAX_MILLIS;
  }

  private static IllegalArgumentException beyondNanosRange(long millis, String what) {
    return new IllegalArgumentException(what + ": timestamp " + millis + " ms is beyond the nanosecond range (year 2262)");
  }

  /** The series as Prometheus writes it (labels as name, value pairs), so that an error can be traced to its source. */
  private static String describe(List<String> labels) {
    StringBuilder out = new StringBuilder();
    String name = "";
    for (int i = 0; i < labels.size(); i += 2) {
      if (labels.get(i).equals(NAME_LABEL)) {
        name = labels.get(i + 1);
      }
    }
    out.append(name).append('{');
    boolean first = true;
    for (int i = 0; i < labels.size(); i += 2) {
      if (labels.get(i).equals(NAME_LABEL)) {
        continue;
      }
      if (!first) {
        out.append(',');
      }
      first = false;
      out.append(labels.get(i)).append("=\"").append(labels.get(i + 1)).append('"');
      if (out.length() > MAX_DESCRIBED_CHARS) {
        return out.substring(0, MAX_DESCRIBED_CHARS) + "...}";
      }
    }
    return out.append('}').toString();
  }
}
