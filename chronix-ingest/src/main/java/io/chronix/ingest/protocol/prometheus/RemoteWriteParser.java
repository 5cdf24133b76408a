package io.chronix.ingest.protocol.prometheus;

import com.google.protobuf.InvalidProtocolBufferException;
import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.pipeline.PointBatch;
import io.chronix.ingest.protocol.LineError;
import io.chronix.ingest.protocol.MalformedBodyException;
import io.chronix.ingest.protocol.ParseResult;
import io.chronix.ingest.protocol.PointSink;
import io.chronix.ingest.protocol.prometheus.proto.Histogram;
import io.chronix.ingest.protocol.prometheus.proto.Label;
import io.chronix.ingest.protocol.prometheus.proto.Sample;
import io.chronix.ingest.protocol.prometheus.proto.TimeSeries;
import io.chronix.ingest.protocol.prometheus.proto.WriteRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.xerial.snappy.Snappy;

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

  /** Prometheus' staleness marker: a NaN that no computation produces. */
  static final long STALE_NAN_BITS = 0x7ff0000000000002L;

  private static final String NAME_LABEL = PrometheusLabels.NAME_LABEL;
  private static final int MAX_DESCRIBED_CHARS = 200;
  private static final long MAX_MILLIS = Long.MAX_VALUE / 1_000_000L;

  private final long maxDecodedBytes;

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
    WriteRequest request = decode(snappyBody);
    List<LineError> errors = new ArrayList<>();
    PointBatch staged = new PointBatch();
    long points = 0;
    for (int i = 0; i < request.getTimeseriesCount(); i++) {
      TimeSeries series = request.getTimeseries(i);
      staged.clear();
      try {
        stage(series, staged);
      } catch (IllegalArgumentException e) {
        errors.add(new LineError(i + 1, e.getMessage() + " in " + describe(series)));
        continue;
      }
      for (int p = 0; p < staged.size(); p++) {
        sink.accept(staged.key(p), staged.timestamp(p), staged.value(p));
      }
      points += staged.size();
    }
    return new ParseResult(points, errors);
  }

  private WriteRequest decode(byte[] body) throws MalformedBodyException {
    int length;
    try {
      // validates the whole stream without allocating, so a forged length header cannot make us
      // allocate before the size check
      if (!Snappy.isValidCompressedBuffer(body)) {
        throw new MalformedBodyException("body is not snappy block-compressed "
            + "(remote write 1.0 sends Content-Encoding: snappy, block format, not framed)", null);
      }
      length = Snappy.uncompressedLength(body);
    } catch (IOException e) {
      throw new MalformedBodyException("body is not snappy block-compressed: " + e.getMessage(), e);
    }
    if (length < 0 || length > maxDecodedBytes) {
      throw MalformedBodyException.tooLarge("decompressed body of " + Integer.toUnsignedLong(length)
          + " bytes exceeds " + maxDecodedBytes + " bytes (http.maxRequestBytes)");
    }
    byte[] raw;
    try {
      raw = Snappy.uncompress(body);
    } catch (IOException e) {
      throw new MalformedBodyException("body is not snappy block-compressed: " + e.getMessage(), e);
    }
    try {
      return WriteRequest.parseFrom(raw);
    } catch (InvalidProtocolBufferException e) {
      throw new MalformedBodyException("body is not a protobuf prometheus.WriteRequest: " + e.getMessage(), e);
    }
  }

  private static void stage(TimeSeries series, PointSink staged) throws IOException {
    PrometheusLabels labels = new PrometheusLabels();
    for (Label label : series.getLabelsList()) {
      labels.add(label.getName(), label.getValue());
    }
    String name = labels.name();
    Map<String, String> attributes = labels.attributes();
    if (series.getSamplesCount() > 0) {
      SeriesKey key = labels.key();
      for (int s = 0; s < series.getSamplesCount(); s++) {
        Sample sample = series.getSamples(s);
        staged.accept(key, nanos(sample.getTimestamp(), "sample " + (s + 1)), sample.getValue());
      }
    }
    for (int h = 0; h < series.getHistogramsCount(); h++) {
      Histogram histogram = series.getHistograms(h);
      try {
        NativeHistogramPoints.expand(name, attributes, histogram, nanos(histogram.getTimestamp(), "histogram"), staged);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("histogram " + (h + 1) + ": " + e.getMessage(), e);
      }
    }
  }

  private static long nanos(long millis, String what) {
    if (millis > MAX_MILLIS || millis < -MAX_MILLIS) {
      throw new IllegalArgumentException(what + ": timestamp " + millis + " ms is beyond the nanosecond range (year 2262)");
    }
    return millis * 1_000_000L;
  }

  /** The series as Prometheus writes it, so that an error can be traced to its source. */
  private static String describe(TimeSeries series) {
    StringBuilder out = new StringBuilder();
    String name = "";
    for (Label label : series.getLabelsList()) {
      if (label.getName().equals(NAME_LABEL)) {
        name = label.getValue();
      }
    }
    out.append(name).append('{');
    boolean first = true;
    for (Label label : series.getLabelsList()) {
      if (label.getName().equals(NAME_LABEL)) {
        continue;
      }
      if (!first) {
        out.append(',');
      }
      first = false;
      out.append(label.getName()).append("=\"").append(label.getValue()).append('"');
      if (out.length() > MAX_DESCRIBED_CHARS) {
        return out.substring(0, MAX_DESCRIBED_CHARS) + "...}";
      }
    }
    return out.append('}').toString();
  }
}
