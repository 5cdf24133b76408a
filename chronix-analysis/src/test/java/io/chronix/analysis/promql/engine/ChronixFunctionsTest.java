package io.chronix.analysis.promql.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.analysis.Analysis;
import io.chronix.analysis.AnalysisResult;
import io.chronix.analysis.Functions;
import io.chronix.analysis.References;
import io.chronix.analysis.Transformation;
import io.chronix.analysis.promql.conformance.InMemorySource;
import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.series.Points;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The chronix_ PromQL functions give what the cf= implementations give on the same window: each
 * expectation is computed by calling chronix-analysis directly on the points of the window
 * (left-open, right-closed, as PromQL's ranges).
 */
class ChronixFunctionsTest {

  private static final long STEP = 10_000;
  private static final int POINTS = 720; // two hours
  private static final long END = POINTS * STEP;
  private static final Labels CPU_A = Labels.of("__name__", "cpu", "host", "a");
  private static final Labels CPU_B = Labels.of("__name__", "cpu", "host", "b");
  private static final Labels EVENTS = Labels.of("__name__", "events");
  private static final Labels SEASONAL = Labels.of("__name__", "seasonal");

  private final Map<Labels, double[][]> data = new LinkedHashMap<>();
  private final InMemorySource source = new InMemorySource();
  private final Engine engine = new Engine(source, Runnable::run);

  ChronixFunctionsTest() {
    series(CPU_A, i -> i == 500 ? 500 : 50 + i * 0.01 + (i % 7) * 0.1);
    series(CPU_B, i -> 50 + Math.sin(i / 9.0));
    series(SEASONAL, i -> i == 650 ? 40 : 10 * Math.sin(2 * Math.PI * i / 24));
    // events: one every 100 s for the first 100 minutes, then one every 10 s
    int n = 0;
    long[] t = new long[POINTS];
    for (long time = STEP; time <= END; time += STEP) {
      if (time > 6_000_000 || time % 100_000 == 0) {
        t[n++] = time;
      }
    }
    double[][] events = {new double[n], new double[n]};
    for (int i = 0; i < n; i++) {
      events[0][i] = t[i];
      events[1][i] = 1;
    }
    add(EVENTS, events);
  }

  private void series(Labels labels, java.util.function.IntToDoubleFunction value) {
    double[][] points = {new double[POINTS], new double[POINTS]};
    for (int i = 0; i < POINTS; i++) {
      points[0][i] = (i + 1) * STEP;
      points[1][i] = value.applyAsDouble(i);
    }
    add(labels, points);
  }

  private void add(Labels labels, double[][] points) {
    long[] t = new long[points[0].length];
    for (int i = 0; i < t.length; i++) {
      t[i] = (long) points[0][i];
    }
    data.put(labels, points);
    source.add(labels, t, points[1]);
  }

  /** The points of a series in (end - range, end], timestamps in nanoseconds as the cf functions take them. */
  private Points window(Labels labels, long end, long range) {
    double[][] points = data.get(labels);
    Points window = new Points();
    for (int i = 0; i < points[0].length; i++) {
      if (points[0][i] > end - range && points[0][i] <= end) {
        window.add((long) points[0][i] * 1_000_000L, points[1][i]);
      }
    }
    return window;
  }

  private AnalysisResult analyse(String spec, Points points, Points reference) {
    return ((Analysis) Functions.parse(spec)).apply(points, q -> reference);
  }

  private Map<Labels, Double> instant(String query, long time) {
    Map<Labels, Double> values = new LinkedHashMap<>();
    for (QueryResult.Sample s : ((QueryResult.Vector) engine.instant(query, time, QueryLimits.DEFAULT).data()).samples()) {
      values.put(s.labels(), s.value());
    }
    return values;
  }

  private static Labels host(String host) {
    return Labels.of("host", host);
  }

  @Test
  void outlierIsOneWhileTheSpikeIsInTheWindow() {
    long spike = 501 * STEP;
    assertEquals(Map.of(host("a"), 1.0, host("b"), 0.0), instant("chronix_outlier(cpu[1h])", spike + 600_000));
    assertEquals(analyse("outlier", window(CPU_A, END, 3_600_000), null).matches() ? 1.0 : 0.0,
        instant("chronix_outlier(cpu{host=\"a\"}[1h])", END).get(host("a")));
    QueryResult.Matrix steps = (QueryResult.Matrix) engine.range("chronix_outlier(cpu{host=\"a\"}[10m])",
        spike - 1_200_000, spike + 1_200_000, 300_000, QueryLimits.DEFAULT).data();
    QueryResult.Series series = steps.series().get(0);
    double[] expected = new double[series.size()];
    for (int i = 0; i < series.size(); i++) {
      expected[i] = analyse("outlier", window(CPU_A, series.timestamps()[i], 600_000), null).matches() ? 1 : 0;
    }
    assertEquals(List.of(0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0), boxed(series.values(), series.size()));
    assertEquals(boxed(expected, expected.length), boxed(series.values(), series.size()));
  }

  @Test
  void outliersAreThePointsOutsideTheFences() {
    QueryResult.Matrix outliers = (QueryResult.Matrix) engine.instant("chronix_outliers(cpu[2h])", END,
        QueryLimits.DEFAULT).data();
    assertEquals(1, outliers.series().size(), "host b has no outlier");
    QueryResult.Series a = outliers.series().get(0);
    assertEquals(CPU_A, a.labels(), "the points are samples of the series: the name stays");
    assertEquals(1, a.size());
    assertEquals(501 * STEP, a.timestamps()[0]);
    assertEquals(500, a.values()[0]);
  }

  @Test
  void trendIsTheSlopeOfTheWindow() {
    double slope = (Double) analyse("trend", window(CPU_A, 4_000_000, 1_800_000), null).details().get("slope");
    assertEquals(slope, instant("chronix_trend(cpu{host=\"a\"}[30m])", 4_000_000).get(host("a")), 1e-12);
    assertTrue(slope > 0);
  }

  @Test
  void frequencyTakesItsWindowInSeconds() {
    Points events = window(EVENTS, END, 7_200_000);
    double expected = analyse("frequency:10,5", events, null).matches() ? 1 : 0;
    assertEquals(1.0, expected, "ten times as many events in the last 20 minutes");
    assertEquals(expected, instant("chronix_frequency(events[2h], 10m, 5)", END).get(Labels.EMPTY));
    assertEquals(0.0, instant("chronix_frequency(events[1h], 600, 5)", 5_900_000).get(Labels.EMPTY), "before the burst");
  }

  @Test
  void saxMatchesAPattern() {
    Points points = window(CPU_B, END, 3_600_000);
    for (String pattern : List.of("*", "a*", "zz")) {
      double expected = analyse("sax:" + pattern + ",8,4,0.01", points, null).matches() ? 1 : 0;
      assertEquals(expected, instant("chronix_sax_match(cpu{host=\"b\"}[1h], \"" + pattern + "\", 8, 4, 0.01)", END)
          .get(host("b")), pattern);
    }
    assertEquals(1.0, instant("chronix_sax_match(cpu{host=\"b\"}[1h], \"*\", 8, 4, 0.01)", END).get(host("b")));
  }

  @Test
  void seasonalAnomaliesCount() {
    Points points = window(SEASONAL, END, 7_200_000);
    long anomalies = (Long) analyse("seasonal:24", points, null).details().get("anomalies");
    assertTrue(anomalies >= 1, "the spike breaks the season");
    assertEquals((double) anomalies, instant("chronix_seasonal_anomalies(seasonal[2h], 24)", END).get(Labels.EMPTY));
    assertEquals((double) (Long) analyse("seasonal:24,0.01,0.2", points, null).details().get("anomalies"),
        instant("chronix_seasonal_anomalies(seasonal[2h], 24, 0.01, 0.2)", END).get(Labels.EMPTY));
  }

  @Test
  void fastDtwAgainstOneReferenceSeries() {
    Points a = window(CPU_A, END, 1_800_000);
    Points b = window(CPU_B, END, 1_800_000);
    double expected = (Double) analyse("fastdtw:reference,5,1e300", a, b).details().get("normalizedDistance");
    assertEquals(expected, instant("chronix_fastdtw(cpu{host=\"a\"}[30m], cpu{host=\"b\"}[30m], 5)", END).get(host("a")),
        1e-12);
    assertEquals(0.0, instant("chronix_fastdtw(cpu{host=\"b\"}[30m], cpu{host=\"b\"}[30m], 5)", END).get(host("b")),
        "a series is no distance from itself");
    PromQlException twoReferences = assertThrows(PromQlException.class,
        () -> instant("chronix_fastdtw(cpu{host=\"a\"}[30m], cpu[30m], 5)", END));
    assertTrue(twoReferences.getMessage().contains("matches 2 series; it must match one"), twoReferences.getMessage());
  }

  @Test
  void transformationsGiveTheTransformedSamples() {
    Points points = window(CPU_A, END, 3_600_000);
    Map<String, String> specs = new LinkedHashMap<>();
    specs.put("chronix_movavg(cpu{host=\"a\"}[1h], 300)", "movavg:300,seconds");
    specs.put("chronix_smovavg(cpu{host=\"a\"}[1h], 5)", "smovavg:5");
    specs.put("chronix_downsample(cpu{host=\"a\"}[1h], 600, \"max\")", "downsample:600,seconds,max");
    specs.put("chronix_vector(cpu{host=\"a\"}[1h], 0.5)", "vector:0.5");
    specs.put("chronix_derivative(cpu{host=\"a\"}[1h])", "derivative");
    specs.put("chronix_nnderivative(cpu{host=\"a\"}[1h])", "nnderivative");
    specs.put("chronix_distinct(cpu{host=\"a\"}[1h])", "distinct");
    specs.put("chronix_top(cpu{host=\"a\"}[1h], 3)", "top:3");
    specs.put("chronix_bottom(cpu{host=\"a\"}[1h], 3)", "bottom:3");
    specs.put("chronix_timeshift(cpu{host=\"a\"}[1h], 60)", "timeshift:60,seconds");
    for (Map.Entry<String, String> entry : specs.entrySet()) {
      Points expected = ((Transformation) Functions.parse(entry.getValue())).apply(points);
      QueryResult.Matrix result = (QueryResult.Matrix) engine.instant(entry.getKey(), END, QueryLimits.DEFAULT).data();
      QueryResult.Series got = result.series().get(0);
      assertEquals(expected.size(), got.size(), entry.getKey());
      for (int i = 0; i < got.size(); i++) {
        assertEquals(expected.timestamp(i) / 1_000_000L, got.timestamps()[i], entry.getKey() + " point " + i);
        assertEquals(expected.value(i), got.values()[i], 1e-12, entry.getKey() + " point " + i);
      }
    }
  }

  @Test
  void transformationsFeedRangeFunctions() {
    Points smoothed = ((Transformation) Functions.parse("movavg:300,seconds")).apply(window(CPU_A, END, 3_600_000));
    double max = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < smoothed.size(); i++) {
      max = Math.max(max, smoothed.value(i));
    }
    assertEquals(max, instant("max_over_time(chronix_movavg(cpu{host=\"a\"}[1h], 300))", END).get(host("a")), 1e-12);
  }

  @Test
  void argumentsAreCheckedByTheCfFunctions() {
    PromQlException negative = assertThrows(PromQlException.class,
        () -> instant("chronix_movavg(cpu[1h], -5)", END));
    assertEquals(PromQlException.Type.BAD_DATA, negative.type());
    assertTrue(negative.getMessage().startsWith("1:1: chronix_movavg: "), negative.getMessage());
    PromQlException varying = assertThrows(PromQlException.class,
        () -> engine.range("chronix_movavg(cpu[1h], time())", 0, END, 600_000, QueryLimits.DEFAULT));
    assertTrue(varying.getMessage().contains("argument 2 must be the same at every step"), varying.getMessage());
    PromQlException pattern = assertThrows(PromQlException.class,
        () -> instant("chronix_sax_match(cpu[1h], \"a-b\", 8, 4, 0.01)", END));
    assertTrue(pattern.getMessage().contains("may only hold letters"), pattern.getMessage());
  }

  private static List<Double> boxed(double[] values, int n) {
    Double[] boxed = new Double[n];
    for (int i = 0; i < n; i++) {
      boxed[i] = values[i];
    }
    return List.of(boxed);
  }
}
