package io.chronix.ingest.protocol.prometheus;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes a bucket bound the way Prometheus 3 normalizes {@code le} (and {@code quantile}) label
 * values on ingestion: the shortest decimal that reads back as the same double, in Go's {@code %g}
 * layout, with {@code .0} appended to whole numbers ({@code 1.0}, {@code 0.25}, {@code 1e+06},
 * {@code +Inf}). Buckets derived from a native histogram then carry the same {@code le} strings
 * as the classic buckets a Prometheus 3 sends, so both kinds can be queried alike.
 */
final class LeValues {

  /** Go switches to exponent notation from this decimal exponent on, for shortest output. */
  private static final int PLAIN_MAX_EXPONENT = 6;
  private static final int PLAIN_MIN_EXPONENT = -4;

  /** Senders repeat the same few thousand bounds in every request; formatting one is not cheap. */
  private static final int MAX_CACHED = 50_000;
  private static final Map<Long, String> CACHE = new ConcurrentHashMap<>();

  private LeValues() {}

  static String cached(double value) {
    Long bits = Double.doubleToRawLongBits(value);
    String formatted = CACHE.get(bits);
    if (formatted == null) {
      formatted = format(value);
      if (CACHE.size() < MAX_CACHED) {
        CACHE.put(bits, formatted);
      }
    }
    return formatted;
  }

  static String format(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "+Inf" : "-Inf";
    }
    if (value == 0) {
      return "0.0"; // -0.0 too: a bound has no sign of zero
    }
    BigDecimal shortest = shortest(value);
    String digits = shortest.unscaledValue().abs().toString();
    // decimal exponent of the first digit: digits d1d2... mean d1.d2... * 10^exponent
    int exponent = digits.length() - shortest.scale() - 1;
    StringBuilder out = new StringBuilder(24);
    if (value < 0) {
      out.append('-');
    }
    if (exponent < PLAIN_MIN_EXPONENT || exponent >= PLAIN_MAX_EXPONENT) {
      out.append(digits.charAt(0));
      if (digits.length() > 1) {
        out.append('.').append(digits, 1, digits.length());
      }
      out.append(exponent < 0 ? "e-" : "e+");
      int magnitude = Math.abs(exponent);
      if (magnitude < 10) {
        out.append('0');
      }
      out.append(magnitude);
      return out.toString();
    }
    int pointAt = exponent + 1; // digits before the decimal point
    if (pointAt <= 0) {
      out.append("0.");
      out.append("0".repeat(-pointAt)).append(digits);
    } else if (pointAt >= digits.length()) {
      out.append(digits).append("0".repeat(pointAt - digits.length())).append(".0");
    } else {
      out.append(digits, 0, pointAt).append('.').append(digits, pointAt, digits.length());
    }
    return out.toString();
  }

  /**
   * The fewest significant digits that still read back as {@code value}. Rounding the exact
   * binary value to p digits finds the nearest p-digit decimal, which round-trips if any does.
   */
  private static BigDecimal shortest(double value) {
    BigDecimal exact = new BigDecimal(value);
    for (int precision = 1; precision < 17; precision++) {
      BigDecimal candidate = exact.round(new MathContext(precision, RoundingMode.HALF_EVEN));
      if (candidate.doubleValue() == value) {
        return candidate.stripTrailingZeros();
      }
    }
    return exact.round(new MathContext(17, RoundingMode.HALF_EVEN)).stripTrailingZeros();
  }
}
