package io.chronix.analysis;

import io.chronix.analysis.aggregation.Aggregations;
import io.chronix.analysis.aggregation.PercentileAggregation;
import io.chronix.analysis.analysis.FastDtw;
import io.chronix.analysis.analysis.Frequency;
import io.chronix.analysis.analysis.Outlier;
import io.chronix.analysis.analysis.Sax;
import io.chronix.analysis.analysis.SeasonalEsd;
import io.chronix.analysis.analysis.Trend;
import io.chronix.analysis.transformation.Derivative;
import io.chronix.analysis.transformation.Distinct;
import io.chronix.analysis.transformation.Downsample;
import io.chronix.analysis.transformation.Extremes;
import io.chronix.analysis.transformation.MovingAverage;
import io.chronix.analysis.transformation.SampleMovingAverage;
import io.chronix.analysis.transformation.TimeShift;
import io.chronix.analysis.transformation.ValueArithmetic;
import io.chronix.analysis.transformation.Vectorization;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The registry of functions by name. All argument checking happens here, when the query is
 * parsed, so that the function classes receive typed, valid values and a bad query fails before
 * any series is loaded.
 */
public final class Functions {

  private static final Map<String, Function<Arguments, ChronixFunction>> FACTORIES =
      new TreeMap<>();

  static {
    for (String name : Aggregations.names()) {
      plain(Aggregations.named(name));
    }
    register("p", args -> new PercentileAggregation(
        args.expect(1, "quantile in (0,1]").numberAbove(0, 0, 1, "quantile"), args.list()));

    register("vector", args -> new Vectorization(
        args.expect(1, "tolerance").nonNegative(0, "tolerance"), args.list()));
    register("scale", args -> ValueArithmetic.scale(
        args.expect(1, "factor").number(0), args.list()));
    register("divide", Functions::divide);
    register("add", args -> ValueArithmetic.add(args.expect(1, "value").number(0), args.list()));
    register("sub", args -> ValueArithmetic.sub(args.expect(1, "value").number(0), args.list()));
    register("top", args -> new Extremes(
        "top", args.expect(1, "number of points").integer(0, 1, "number of points"), args.list()));
    register("bottom", args -> new Extremes("bottom",
        args.expect(1, "number of points").integer(0, 1, "number of points"), args.list()));
    register("movavg", args -> new MovingAverage(
        args.expect(2, "window, unit").positiveNanos(0, 1, "window"), args.list()));
    register("smovavg", args -> new SampleMovingAverage(
        args.expect(1, "number of samples").integer(0, 1, "number of samples"), args.list()));
    plain(new Derivative(false));
    plain(new Derivative(true));
    register("timeshift", args -> new TimeShift(
        args.expect(2, "amount, unit").nanos(0, 1), args.list()));
    plain(new Distinct());
    register("downsample", Functions::downsample);

    plain(new Trend());
    plain(new Outlier());
    register("frequency", Functions::frequency);
    register("fastdtw", Functions::fastDtw);
    register("sax", Functions::sax);
    register("seasonal", Functions::seasonal);
  }

  private Functions() {}

  private static void register(String name, Function<Arguments, ChronixFunction> factory) {
    FACTORIES.put(name, factory);
  }

  /** A function without arguments: immutable, so one instance serves every query. */
  private static void plain(ChronixFunction function) {
    register(function.name(), args -> {
      args.expect(0, "");
      return function;
    });
  }

  /**
   * Parses one function spec such as "max", "p:0.99", "movavg:10,minutes" or
   * "fastdtw:name:ref AND host:x,5,0.8". The name ends at the first ':'; the arguments are split
   * at ','. fastdtw's first argument is a Solr query that may itself hold ':' and ',', so its
   * arguments are taken from the right: the last two are radius and maximum cost.
   */
  public static ChronixFunction parse(String spec) {
    String text = spec == null ? "" : spec.trim();
    if (text.isEmpty()) {
      throw new FunctionQueryException("empty function");
    }
    int colon = text.indexOf(':');
    String name = (colon < 0 ? text : text.substring(0, colon)).trim().toLowerCase(Locale.ROOT);
    String argumentText = colon < 0 ? "" : text.substring(colon + 1).trim();
    if (name.isEmpty()) {
      throw new FunctionQueryException("missing function name in '" + text + "'");
    }
    Function<Arguments, ChronixFunction> factory = FACTORIES.get(name);
    if (factory == null) {
      throw new FunctionQueryException("unknown function '" + name + "'");
    }
    List<String> arguments =
        name.equals("fastdtw") ? splitFromRight(argumentText, 2) : split(argumentText);
    for (int i = 0; i < arguments.size(); i++) {
      if (arguments.get(i).isEmpty()) {
        throw new FunctionQueryException(name + ": argument " + (i + 1) + " is empty");
      }
    }
    return factory.apply(new Arguments(name, arguments));
  }

  public static Set<String> names() {
    return Collections.unmodifiableSet(FACTORIES.keySet());
  }

  private static List<String> split(String text) {
    List<String> parts = new ArrayList<>();
    if (text.isEmpty()) {
      return parts;
    }
    for (String part : text.split(",", -1)) {
      parts.add(part.trim());
    }
    return parts;
  }

  /** The last {@code tail} comma-separated items, preceded by everything before them as one. */
  private static List<String> splitFromRight(String text, int tail) {
    if (text.isEmpty()) {
      return new ArrayList<>();
    }
    List<String> parts = new ArrayList<>();
    int end = text.length();
    for (int i = 0; i < tail; i++) {
      int comma = text.lastIndexOf(',', end - 1);
      if (comma < 0) {
        break;
      }
      parts.add(0, text.substring(comma + 1, end).trim());
      end = comma;
    }
    parts.add(0, text.substring(0, end).trim());
    return parts;
  }

  private static ChronixFunction divide(Arguments args) {
    double divisor = args.expect(1, "divisor").number(0);
    if (divisor == 0) {
      throw args.error("cannot divide by 0");
    }
    return ValueArithmetic.divide(divisor, args.list());
  }

  private static ChronixFunction downsample(Arguments args) {
    args.expect(3, "interval, unit, aggregation");
    long interval = args.positiveNanos(0, 1, "interval");
    String aggregation = args.text(2).toLowerCase(Locale.ROOT);
    if (Aggregations.named(aggregation) == null) {
      throw args.error("unknown aggregation '" + args.text(2) + "' (use one of "
          + Aggregations.names() + ")");
    }
    return new Downsample(interval, Aggregations.named(aggregation), args.list());
  }

  private static ChronixFunction frequency(Arguments args) {
    args.expect(2, "window minutes, threshold");
    long window = args.nanos(0, ChronoUnit.MINUTES);
    if (window <= 0) {
      throw args.error("window must be positive, got " + args.text(0));
    }
    return new Frequency(window, args.nonNegative(1, "threshold"), args.list());
  }

  private static ChronixFunction fastDtw(Arguments args) {
    args.expect(3, "reference query, radius, max cost");
    int radius = args.integer(1, 0, "radius");
    double maxCost = args.nonNegative(2, "max cost");
    return new FastDtw(args.text(0), radius, maxCost, args.list());
  }

  private static ChronixFunction sax(Arguments args) {
    args.expect(4, "pattern, paa size, alphabet size, threshold");
    if (!args.text(0).matches("[a-zA-Z*?]+")) {
      throw args.error("pattern '" + args.text(0) + "' may only hold letters, '*' and '?'");
    }
    int paaSize = args.integer(1, 1, "paa size");
    int alphabetSize = args.integer(2, 2, "alphabet size");
    if (alphabetSize > 26) {
      throw args.error("alphabet size must be at most 26, got " + args.text(2));
    }
    return new Sax(args.text(0), paaSize, alphabetSize, args.nonNegative(3, "threshold"),
        args.list());
  }

  private static ChronixFunction seasonal(Arguments args) {
    args.expect(1, 3, "period in points[, alpha[, max anomaly fraction]]");
    int period = args.integer(0, 1, "period");
    double alpha = args.number(1, 0.05);
    if (!(alpha > 0 && alpha < 1)) {
      throw args.error("alpha must be in (0,1), got " + args.text(1));
    }
    double fraction = args.size() > 2 ? args.numberAbove(2, 0, 0.5, "max anomaly fraction") : 0.1;
    return new SeasonalEsd(period, alpha, fraction, args.list());
  }
}
