package io.chronix.analysis;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The arguments of one function spec, with conversions that fail with a message naming the
 * function: users type these by hand into a URL, so every mistake must be easy to locate.
 */
final class Arguments {

  // Stricter than Double.parseDouble, which would also take "10d", "0x1p3", "NaN" and "Infinity".
  private static final Pattern NUMBER =
      Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");

  private final String function;
  private final List<String> values;

  Arguments(String function, List<String> values) {
    this.function = function;
    this.values = List.copyOf(values);
  }

  List<String> list() {
    return values;
  }

  int size() {
    return values.size();
  }

  String text(int index) {
    return values.get(index);
  }

  FunctionQueryException error(String problem) {
    return new FunctionQueryException(function + ": " + problem);
  }

  /** Checks the arity; {@code usage} describes the expected arguments for the message. */
  Arguments expect(int count, String usage) {
    return expect(count, count, usage);
  }

  Arguments expect(int min, int max, String usage) {
    int given = values.size();
    if (given >= min && given <= max) {
      return this;
    }
    if (max == 0) {
      throw error("takes no arguments, got " + given);
    }
    String needs = min == max ? String.valueOf(min) : min + " to " + max;
    throw error("needs " + needs + (max == 1 ? " argument" : " arguments")
        + " (" + usage + "), got " + given);
  }

  double number(int index) {
    String text = values.get(index);
    if (!NUMBER.matcher(text).matches()) {
      throw error("'" + text + "' is not a number");
    }
    return Double.parseDouble(text);
  }

  double number(int index, double fallback) {
    return index < values.size() ? number(index) : fallback;
  }

  /** A number in the open-closed interval (low, high]. */
  double numberAbove(int index, double low, double high, String what) {
    double number = number(index);
    if (!(number > low && number <= high)) {
      throw error(what + " must be in (" + plain(low) + "," + plain(high) + "], got "
          + values.get(index));
    }
    return number;
  }

  double nonNegative(int index, String what) {
    double number = number(index);
    if (number < 0) {
      throw error(what + " must not be negative, got " + values.get(index));
    }
    return number;
  }

  /** A whole number of at least {@code min}, for counts and sizes. */
  int integer(int index, int min, String what) {
    String text = values.get(index);
    double number = number(index);
    if (number != Math.rint(number) || Math.abs(number) > Integer.MAX_VALUE) {
      throw error(what + " must be a whole number, got " + text);
    }
    if (number < min) {
      throw error(what + " must be at least " + min + ", got " + text);
    }
    return (int) number;
  }

  ChronoUnit unit(int index) {
    String text = values.get(index);
    ChronoUnit unit = TimeUnits.parse(text);
    if (unit == null) {
      throw error("unknown time unit '" + text + "' (use one of " + TimeUnits.NAMES + ")");
    }
    return unit;
  }

  /** The signed duration in nanoseconds of an amount and a unit argument. */
  long nanos(int amountIndex, int unitIndex) {
    number(amountIndex);
    return nanos(new BigDecimal(values.get(amountIndex)), unit(unitIndex), amountIndex);
  }

  /** The duration in nanoseconds of an amount argument in a fixed unit. */
  long nanos(int amountIndex, ChronoUnit unit) {
    number(amountIndex);
    return nanos(new BigDecimal(values.get(amountIndex)), unit, amountIndex);
  }

  long positiveNanos(int amountIndex, int unitIndex, String what) {
    long nanos = nanos(amountIndex, unitIndex);
    if (nanos <= 0) {
      throw error(what + " must be positive, got " + values.get(amountIndex) + " "
          + values.get(unitIndex));
    }
    return nanos;
  }

  private long nanos(BigDecimal amount, ChronoUnit unit, int amountIndex) {
    BigDecimal nanos = amount.multiply(BigDecimal.valueOf(unit.getDuration().toNanos()))
        .setScale(0, RoundingMode.HALF_UP);
    try {
      return nanos.longValueExact();
    } catch (ArithmeticException tooLong) {
      throw error("'" + values.get(amountIndex) + " " + unit + "' is too long a duration");
    }
  }

  private static String plain(double number) {
    return number == Math.rint(number) ? String.valueOf((long) number) : String.valueOf(number);
  }
}
