package io.chronix.ingest.protocol.prometheus;

import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.SeriesOrigin;
import io.chronix.ingest.protocol.Attributes;
import io.chronix.ingest.protocol.PointSink;
import io.chronix.ingest.protocol.prometheus.proto.BucketSpan;
import io.chronix.ingest.protocol.prometheus.proto.Histogram;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntToDoubleFunction;
import java.util.function.IntToLongFunction;

/**
 * Stores a native histogram as the float series a classic histogram with the same buckets would
 * have, because Chronix keeps float points only:
 *
 * <ul>
 *   <li>{@code <name>_count} and {@code <name>_sum};
 *   <li>{@code <name>_bucket} with attribute {@code le} for every bucket with a non-zero count, its
 *       value the cumulative count of all buckets up to and including it, as in a classic
 *       histogram, plus {@code le="+Inf"} holding the total count.
 * </ul>
 *
 * <p>Bucket bounds ({@link LeValues} formats them): a positive bucket of index {@code i} gets its
 * upper bound ({@link BucketBounds#upper}); the zero bucket, holding {@code [-zero_threshold,
 * zero_threshold]}, gets {@code le=<zero_threshold>}; a negative bucket of index {@code i}, holding
 * {@code [-upper(i), -upper(i-1))}, gets {@code le=-upper(i-1)}, a bound it does not include, the one
 * difference to a classic bucket. With custom buckets (schema -53) bucket {@code i} gets
 * {@code custom_values[i]}, the one past the last value {@code +Inf}.
 *
 * <p>Counter resets, the reset hint and gauge histograms need nothing special: every value is
 * stored as sent. A histogram whose sum is the stale marker is skipped, as stale float samples are.
 */
final class NativeHistogramPoints {

  private static final String INF = "+Inf";

  private NativeHistogramPoints() {}

  /** @throws IllegalArgumentException naming what is wrong with the histogram */
  static void expand(String name, Map<String, String> attributes, Histogram histogram, long timestampNanos,
      PointSink sink) throws IOException {
    if (RemoteWriteParser.isStaleMarker(histogram.getSum())) {
      return;
    }
    int schema = histogram.getSchema();
    boolean custom = schema == BucketBounds.CUSTOM_BUCKETS_SCHEMA;
    if (!custom && !BucketBounds.isExponential(schema)) {
      throw new IllegalArgumentException("schema " + schema + " is not supported (" + BucketBounds.MIN_SCHEMA + ".."
          + BucketBounds.MAX_SCHEMA + ", or " + BucketBounds.CUSTOM_BUCKETS_SCHEMA + " for custom buckets)");
    }
    String leKey = Attributes.key("le");
    if (attributes.containsKey(leKey)) {
      throw new IllegalArgumentException("a native histogram's series must not have a label 'le': its buckets get one");
    }
    boolean floats = histogram.getCountCase() == Histogram.CountCase.COUNT_FLOAT;
    double count = floats ? histogram.getCountFloat() : unsigned(histogram.getCountInt());
    double zeroCount = switch (histogram.getZeroCountCase()) {
      case ZERO_COUNT_FLOAT -> histogram.getZeroCountFloat();
      case ZERO_COUNT_INT -> unsigned(histogram.getZeroCountInt());
      default -> 0;
    };
    Buckets negative = Buckets.decode("negative", histogram.getNegativeSpansList(), floats,
        histogram.getNegativeDeltasCount(), histogram::getNegativeDeltas,
        histogram.getNegativeCountsCount(), histogram::getNegativeCounts);
    Buckets positive = Buckets.decode("positive", histogram.getPositiveSpansList(), floats,
        histogram.getPositiveDeltasCount(), histogram::getPositiveDeltas,
        histogram.getPositiveCountsCount(), histogram::getPositiveCounts);
    if (custom) {
      checkCustom(histogram, negative, positive, zeroCount);
    }

    // LinkedHashMap: bounds arrive in ascending order; two buckets formatting to the same bound
    // (only in malformed histograms) keep the later, larger cumulative count
    Map<String, Double> cumulative = new LinkedHashMap<>();
    double running = 0;
    for (int k = negative.size() - 1; k >= 0; k--) {
      if (negative.counts[k] != 0) {
        running += negative.counts[k];
        cumulative.put(LeValues.cached(-BucketBounds.lower(schema, negative.indexes[k])), running);
      }
    }
    if (zeroCount != 0) {
      running += zeroCount;
      cumulative.put(LeValues.cached(histogram.getZeroThreshold()), running);
    }
    for (int k = 0; k < positive.size(); k++) {
      if (positive.counts[k] != 0) {
        running += positive.counts[k];
        int index = positive.indexes[k];
        double bound = custom
            ? (index < histogram.getCustomValuesCount() ? histogram.getCustomValues(index) : Double.POSITIVE_INFINITY)
            : BucketBounds.upper(schema, index);
        cumulative.put(LeValues.cached(bound), running);
      }
    }
    // the total also counts NaN observations, which no bucket holds: as in a classic histogram
    cumulative.put(INF, count);

    Map<String, String> origin = Attributes.withOrigin(attributes, SeriesOrigin.PROMETHEUS);
    sink.accept(SeriesKey.metric(name + "_count", origin), timestampNanos, count);
    sink.accept(SeriesKey.metric(name + "_sum", origin), timestampNanos, histogram.getSum());
    String bucketName = name + "_bucket";
    for (Map.Entry<String, Double> bucket : cumulative.entrySet()) {
      Map<String, String> bucketAttributes = new HashMap<>(attributes);
      bucketAttributes.put(leKey, Attributes.value(leKey, bucket.getKey()));
      sink.accept(SeriesKey.metric(bucketName, Attributes.withOrigin(bucketAttributes, SeriesOrigin.PROMETHEUS)),
          timestampNanos, bucket.getValue());
    }
  }

  private static void checkCustom(Histogram histogram, Buckets negative, Buckets positive, double zeroCount) {
    if (negative.size() > 0 || zeroCount != 0) {
      throw new IllegalArgumentException("a histogram with custom buckets (schema -53) has no negative or zero buckets");
    }
    double previous = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < histogram.getCustomValuesCount(); i++) {
      double bound = histogram.getCustomValues(i);
      if (!(bound > previous) || Double.isInfinite(bound)) {
        throw new IllegalArgumentException("custom bucket bounds must be finite and strictly increasing, "
            + "but bound " + (i + 1) + " is " + bound);
      }
      previous = bound;
    }
    for (int k = 0; k < positive.size(); k++) {
      if (positive.indexes[k] < 0 || positive.indexes[k] > histogram.getCustomValuesCount()) {
        throw new IllegalArgumentException("bucket index " + positive.indexes[k] + " has no custom bound (there are "
            + histogram.getCustomValuesCount() + ")");
      }
    }
  }

  /** uint64 counts: a count beyond 2^63 is still a count, not a negative number. */
  private static double unsigned(long value) {
    return value >= 0 ? value : (double) (value >>> 1) * 2.0 + (value & 1);
  }

  /** One side's buckets: index and absolute count, in ascending index order. */
  private static final class Buckets {
    final int[] indexes;
    final double[] counts;

    private Buckets(int size) {
      indexes = new int[size];
      counts = new double[size];
    }

    int size() {
      return indexes.length;
    }

    /**
     * Spans give runs of bucket indexes: the first span's offset is its first index, a later one's
     * the gap after the previous span. Integer histograms send each count as the difference to the
     * previous bucket's, float histograms send the counts themselves.
     */
    static Buckets decode(String side, List<BucketSpan> spans, boolean floats, int deltaCount,
        IntToLongFunction deltas, int countCount, IntToDoubleFunction counts) {
      long covered = 0;
      for (BucketSpan span : spans) {
        covered += Integer.toUnsignedLong(span.getLength());
      }
      int given = floats ? countCount : deltaCount;
      if ((floats ? deltaCount : countCount) != 0) {
        throw new IllegalArgumentException(side + " buckets: " + (floats ? "a float" : "an integer")
            + " histogram must carry " + (floats ? "counts, not deltas" : "deltas, not counts"));
      }
      if (covered != given) {
        throw new IllegalArgumentException(side + " spans cover " + covered + " buckets but " + given
            + (floats ? " counts" : " deltas") + " are given");
      }
      Buckets buckets = new Buckets(given);
      long index = 0;
      long absolute = 0;
      int k = 0;
      for (int s = 0; s < spans.size(); s++) {
        BucketSpan span = spans.get(s);
        if (s > 0 && span.getOffset() < 0) {
          throw new IllegalArgumentException(side + " span " + (s + 1) + " has negative offset " + span.getOffset());
        }
        index += span.getOffset();
        for (long b = 0; b < Integer.toUnsignedLong(span.getLength()); b++, index++, k++) {
          if (index <= Integer.MIN_VALUE || index > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(side + " bucket index " + index + " is out of range");
          }
          buckets.indexes[k] = (int) index;
          if (floats) {
            buckets.counts[k] = counts.applyAsDouble(k);
          } else {
            absolute += deltas.applyAsLong(k);
            buckets.counts[k] = absolute;
          }
          if (buckets.counts[k] < 0) {
            throw new IllegalArgumentException(side + " bucket " + index + " has negative count " + buckets.counts[k]);
          }
        }
      }
      return buckets;
    }
  }
}
