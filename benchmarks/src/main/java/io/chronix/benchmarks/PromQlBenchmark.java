package io.chronix.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronix.analysis.Analysis;
import io.chronix.analysis.Functions;
import io.chronix.core.csv.P4CsvReader;
import io.chronix.core.csv.P4File;
import io.chronix.core.series.Points;
import io.chronix.ingest.importer.CsvImporter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;

/**
 * Grafana-style PromQL queries, ours against VictoriaMetrics, on the same samples in one run.
 *
 * <p>Both servers get the same series through Prometheus remote write (the same client): all of
 * shared/data/p4 and a synthetic set of 10,000 series (1,000 hosts in 10 data centres, 10 metrics
 * each, half gauges and half counters, one sample a minute for 24 hours). Then every query shape
 * runs for both, alternating which goes first, with the time window moved back one step per round
 * as a refreshing dashboard moves it (so neither side answers from a result cache for a window
 * it has seen). Each request is timed from sending to the parsed JSON answer, gzip accepted as
 * Grafana does; the median of the measured rounds is reported with the ratio ours / VM.
 *
 * <p>Warm-up: each shape is first asked of both servers in the same way, the window moving back
 * step by step from the shape's end, until both have answered at least {@value #WARM_UP_ROUNDS}
 * times and for {@value #WARM_UP_MILLIS} ms together, within the hour before the end (at most
 * {@value #MAX_WARM_UP_ROUNDS} rounds); the measured rounds go on moving back from there, so
 * every measured window still starts earlier than any the servers have seen. A dashboard asks the
 * same shape all day, and our server's quick JIT compiler compiles a method after some 200 calls:
 * three rounds left a query path that runs once a request interpreted (10 ms for a one-series
 * range that a warm server answers in 0.3). Each side's first answer to the shape is reported.
 *
 * <p>Shapes: one series over 1 h ({@code query_range}, step 15 s); {@code sum by} over 100 series
 * over 24 h (step 120 s); {@code topk} over all series (instant; on the synthetic set also at the
 * data's end, as a table panel or an alert asks at "now"); {@code rate} over counters summed
 * by a label over 6 h (step 60 s); an outlier panel over 24 h (step 5 min, 1 h windows): ours
 * computes {@code chronix_outlier} server-side, VictoriaMetrics has no such function, so its side
 * is what Grafana would need without it: the raw samples fetched and the same outlier code run in
 * the client per step. The two outlier answers must agree step for step. On the synthetic set also
 * the listings behind Grafana's query editor and template variables over 6 h: label names, the
 * values of {@code host} (of all series and of one metric's), and the series of one metric.
 *
 * <p>Then both get the synthetic series' next half hour, which ours keeps buffered (a steady load
 * always has its last minutes in the buffers), and the listings and two panels are asked again at
 * that "now", their windows moving forward a step a round.
 *
 * <p>With {@code --steady}, each of those tables is followed by the same shapes in a steady state:
 * asked until both servers have answered for {@value #STEADY_WARM_UP_MILLIS} ms (at most
 * {@value #STEADY_MAX_WARM_UP_ROUNDS} rounds), going round the shape's first windows again and
 * again instead of moving on (a dashboard asks its shapes all day, while the tables before measure
 * a shape's first few hundred requests, in which our server still compiles the paths that run
 * once a request), with both servers' result caches off ({@code nocache=1}): the windows repeat,
 * and these tables compare evaluating them. The first tables stay the comparison, both caches on
 * as a dashboard finds them (a window a step from the last one is mostly kept); the steady ones
 * say what of the difference is the compiling and the evaluation. With {@code --kept} as well, the
 * steady state leaves both caches on: what a dashboard asked again for the same windows gets.
 *
 * <p>Ours runs as its user starts it ({@code ./chronix start} with the launcher's defaults, a process
 * of its own). Run: {@code benchmarks/run PromQlBenchmark [<p4 dir>] [rounds] [--steady [--kept]]}
 */
public final class PromQlBenchmark {

  private static final ObjectMapper JSON = new ObjectMapper();
  /**
   * HTTP/1.1 to both, as Grafana's Go client speaks to a plain-http datasource: Java's default would
   * upgrade to h2c where our server offers it and stay on HTTP/1.1 with VictoriaMetrics.
   */
  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();
  private static final int WARM_UP_ROUNDS = 3;
  private static final long WARM_UP_MILLIS = 3_000;
  private static final int MAX_WARM_UP_ROUNDS = 300;
  /**
   * At most this many warm-up rounds for the live shapes: their windows move forward, and must
   * still end near the data (past it VictoriaMetrics' adaptive lookback finds nothing where
   * PromQL's 5 minutes do). The stored shapes before warmed the same query paths up.
   */
  private static final int MAX_LIVE_WARM_UP_ROUNDS = 20;
  private static final long STEADY_WARM_UP_MILLIS = 10_000;
  private static final int STEADY_MAX_WARM_UP_ROUNDS = 2_000;
  /** Windows a stored shape goes round in the steady state: its first hour, at most this many steps. */
  private static final int STEADY_WINDOWS = 60;
  private static final int SAMPLES_PER_REQUEST = 10_000;
  private static final long MINUTE = 60_000;
  private static final long HOUR = 60 * MINUTE;
  /** The synthetic set's last sample: 2024-06-01T00:00:00Z. */
  private static final long SYNTHETIC_END = 1_717_200_000_000L;
  /** Minutes of the synthetic set sent after the rest and left unflushed (the live shapes). */
  private static final int LIVE_MINUTES = 30;
  private static final long LIVE_END = SYNTHETIC_END + LIVE_MINUTES * 60_000L;
  private static final int HOSTS = 1000;
  private static final int DATA_CENTRES = 10;
  private static final String[] GAUGES = {"cpu_usage_percent", "memory_used_bytes", "load1", "temperature_celsius",
      "threads"};
  private static final String[] COUNTERS = {"requests_total", "errors_total", "network_receive_bytes_total",
      "disk_io_seconds_total", "gc_collections_total"};

  /**
   * One query shape. {@code outlierSelector} set: an outlier panel over that series, answered by
   * chronix_outlier on our side and by a raw fetch plus client-side analysis for the peer.
   * {@code listing} set: a request of that listing endpoint (label names, label values, series) over
   * the range, with the query as its {@code match[]} if any, as Grafana's query editor and template
   * variables send them.
   */
  record Shape(String dataset, String name, String query, boolean instant, long rangeMillis, long stepMillis,
      long end, String outlierSelector, String listing) {

    Shape(String dataset, String name, String query, boolean instant, long rangeMillis, long stepMillis, long end,
        String outlierSelector) {
      this(dataset, name, query, instant, rangeMillis, stepMillis, end, outlierSelector, null);
    }

    static Shape listing(String dataset, String name, String endpoint, String match, long end) {
      return new Shape(dataset, name, match, false, 6 * HOUR, MINUTE, end, null, endpoint);
    }
  }

  /** One timed answer: how many series and points came back, and the outlier verdicts if any. */
  record Answer(long nanos, int series, long points, double[] verdicts) {}

  private PromQlBenchmark() {}

  public static void main(String[] args) throws Exception {
    List<String> positional = new ArrayList<>(List.of(args));
    boolean steady = positional.remove("--steady");
    // --kept: the steady state with both servers' result caches on, as a dashboard asked again finds them
    boolean kept = positional.remove("--kept");
    Path input = Path.of(positional.size() > 0 ? positional.get(0) : "../shared/data/p4");
    int rounds = positional.size() > 1 ? Integer.parseInt(positional.get(1)) : 15;
    List<P4File> p4 = new ArrayList<>();
    for (Path file : CsvImporter.expand(List.of(input))) {
      p4.add(new P4CsvReader(ZoneOffset.UTC).read(file));
    }
    List<Shape> shapes = new ArrayList<>(p4Shapes(p4));
    shapes.addAll(syntheticShapes());

    String binary = VictoriaMetricsProcess.install();
    Path storage = Files.createTempDirectory("vm-promql-bench");
    Path log = Files.createTempFile("vm-promql-bench", ".log");
    Path dataDir = Files.createTempDirectory("chronix-promql-bench");
    Path serverLog = Files.createTempFile("chronix-promql-bench", ".log");
    // ours as its user starts it (./chronix start, the launcher's defaults), a process of its own
    // as VictoriaMetrics is: in this JVM it shared the heap, the JIT and the collector with the client
    try (VictoriaMetricsProcess vm = VictoriaMetricsProcess.start(binary, storage, log);
         ChronixProcess server = ChronixProcess.start(dataDir.resolve("data"), serverLog)) {
      URI ours = server.base();
      long points = 0;
      for (URI target : List.of(ours, vm.base())) {
        long started = System.nanoTime();
        points = load(target, p4);
        System.out.printf("loaded %,d samples into %s in %.1f s (remote write, one client)%n", points,
            target.equals(ours) ? "ours" : "VictoriaMetrics", (System.nanoTime() - started) / 1e9);
      }
      expectOk(HTTP.send(HttpRequest.newBuilder(ours.resolve("/flush")).POST(HttpRequest.BodyPublishers.noBody())
          .build(), HttpResponse.BodyHandlers.ofString()), "flush");
      expectOk(VictoriaMetricsProcess.get(vm.base().resolve("/internal/force_flush")), "force_flush");
      Thread.sleep(2_000); // VictoriaMetrics makes flushed samples searchable within a second

      System.out.printf("%nVictoriaMetrics %s, %,d samples in %,d series; %d measured rounds after %d to %d warm-up"
          + " rounds of at least %d ms%n%n", VictoriaMetricsProcess.version(binary), points,
          p4.size() + HOSTS * (GAUGES.length + COUNTERS.length), rounds, WARM_UP_ROUNDS, MAX_WARM_UP_ROUNDS,
          WARM_UP_MILLIS);
      boolean allFaster = measure(shapes, ours, vm.base(), rounds, Schedule.moving(-1, MAX_WARM_UP_ROUNDS));
      if (steady) {
        measureSteady(shapes, ours, vm.base(), rounds, -1, STEADY_WINDOWS, !kept);
      }

      // the last half hour of the synthetic set sent now and left buffered, as under a steady load
      // (ours keeps it in its buffers for up to chunk.maxAge, 10 minutes): listings and queries of
      // dashboards at "now", their windows moving forward round by round
      long live = 0;
      for (URI target : List.of(ours, vm.base())) {
        live = loadLive(target);
      }
      Thread.sleep(2_000); // VictoriaMetrics makes samples searchable within a second
      System.out.printf("%nWith %,d more samples sent just now (the synthetic series' next %d minutes), not flushed:%n%n",
          live, LIVE_MINUTES);
      allFaster &= measure(liveShapes(), ours, vm.base(), rounds, Schedule.moving(1, MAX_LIVE_WARM_UP_ROUNDS));
      if (steady) {
        // round the windows the moving rounds may use, which stay near the live data
        measureSteady(liveShapes(), ours, vm.base(), rounds, 1, MAX_LIVE_WARM_UP_ROUNDS, !kept);
      }
      List<Shape> all = new ArrayList<>(shapes);
      all.addAll(liveShapes());
      System.out.printf("%nqueries: %s%n", describe(all));
      System.out.println(allFaster ? "every shape at most VictoriaMetrics' median" : "some shapes slower than VictoriaMetrics");
    } catch (Exception | Error e) {
      VictoriaMetricsProcess.printTail(log);
      throw e;
    } finally {
      ImportBenchmark.deleteRecursively(storage);
      ImportBenchmark.deleteRecursively(dataDir);
      Files.deleteIfExists(serverLog);
      Files.deleteIfExists(log); // its tail was printed above if anything failed
    }
    System.exit(0);
  }

  /**
   * How a shape is asked: warm-up rounds until both servers have answered at least
   * {@value #WARM_UP_ROUNDS} times and for {@code warmUpMillis} together (at most
   * {@code maxWarmUpRounds}), then the measured rounds. Round r's window ends r steps from the
   * shape's end in {@code direction} (back: -1; forward: 1), warm-up rounds counted first; with a
   * {@code cycle}, r modulo the cycle, so that the rounds go round the same windows.
   */
  record Schedule(int direction, int maxWarmUpRounds, long warmUpMillis, int cycle, boolean cachesOff) {

    /** Windows moving on without end, warm-up within the hour before the end (at most {@code maxWarmUp}). */
    static Schedule moving(int direction, int maxWarmUp) {
      return new Schedule(direction, maxWarmUp, WARM_UP_MILLIS, 0, false);
    }

    /** Going round {@code windows} windows, warmed up for {@value #STEADY_WARM_UP_MILLIS} ms, both caches off. */
    static Schedule steady(int direction, int windows) {
      return steady(direction, windows, true);
    }

    /** As {@link #steady(int, int)}, both caches off or both on. */
    static Schedule steady(int direction, int windows, boolean cachesOff) {
      return new Schedule(direction, STEADY_MAX_WARM_UP_ROUNDS, STEADY_WARM_UP_MILLIS, windows, cachesOff);
    }

    /** The end of round {@code round}'s window. */
    long end(Shape shape, int round) {
      long offset = cycle == 0 ? round : round % cycle;
      return shape.end() + direction * offset * step(shape);
    }

    /** Warm-up rounds at most for the shape: moving windows stay within the hour before its end. */
    int maxWarmUpRounds(Shape shape) {
      return cycle == 0 ? (int) Math.max(WARM_UP_ROUNDS, Math.min(maxWarmUpRounds, HOUR / step(shape)))
          : Math.max(WARM_UP_ROUNDS, maxWarmUpRounds);
    }

    /** An instant shape's time moves a minute a round, or by its step where it has one. */
    static long step(Shape shape) {
      return shape.instant() && shape.stepMillis() == 0 ? MINUTE : shape.stepMillis();
    }
  }

  /**
   * The steady state's table and how many of its shapes were at most VictoriaMetrics' median (a
   * schedule per shape: each goes round its own first windows).
   */
  private static void measureSteady(List<Shape> shapes, URI ours, URI vm, int rounds, int direction, int windows,
      boolean cachesOff) throws Exception {
    System.out.printf("%nSteady state (--steady): each shape going round its first windows (at most %d), after"
        + " warm-up rounds of at least %d ms (at most %d), %d measured rounds; %s:%n%n",
        windows, STEADY_WARM_UP_MILLIS, STEADY_MAX_WARM_UP_ROUNDS, 3 * rounds,
        cachesOff ? "both with nocache=1" : "both servers' result caches on (--kept)");
    int atMost = 0;
    for (Shape shape : shapes) {
      int cycle = (int) Math.max(1, Math.min(windows, HOUR / Schedule.step(shape)));
      atMost += measure(List.of(shape), ours, vm, 3 * rounds, Schedule.steady(direction, cycle, cachesOff),
          shape == shapes.get(0))
          ? 1 : 0;
    }
    System.out.printf("steady state: %d of %d shapes at most VictoriaMetrics' median%n", atMost, shapes.size());
  }

  /**
   * Asks both servers each shape as the schedule has it and prints the table of medians. Whether
   * every shape's median was at most VictoriaMetrics'.
   */
  private static boolean measure(List<Shape> shapes, URI ours, URI vm, int rounds, Schedule schedule)
      throws Exception {
    return measure(shapes, ours, vm, rounds, schedule, true);
  }

  private static boolean measure(List<Shape> shapes, URI ours, URI vm, int rounds, Schedule schedule,
      boolean header) throws Exception {
    if (header) {
      System.out.printf("| data | query shape | ours (median ms) | VictoriaMetrics (median ms) | ours / VM | series ours / VM"
          + " | first answer ours / VM (ms) | warm-up rounds |%n");
      System.out.printf("|---|---|---|---|---|---|---|---|%n");
    }
    boolean allFaster = true;
    for (Shape shape : shapes) {
      long[] oursNanos = new long[rounds];
      long[] vmNanos = new long[rounds];
      Answer oursAnswer = null;
      Answer vmAnswer = null;
      int maxWarmRounds = schedule.maxWarmUpRounds(shape);
      double[] firstMs = null;
      long warmNanos = 0;
      int warmRounds = 0;
      while (warmRounds < WARM_UP_ROUNDS
          || (warmNanos < schedule.warmUpMillis() * 1_000_000 && warmRounds < maxWarmRounds)) {
        Answer[] answers = askBoth(ours, vm, shape, schedule.end(shape, warmRounds), warmRounds,
            schedule.cachesOff());
        if (firstMs == null) {
          firstMs = new double[] {answers[0].nanos() / 1e6, answers[1].nanos() / 1e6};
        }
        warmNanos += answers[0].nanos() + answers[1].nanos();
        warmRounds++;
      }
      for (int round = 0; round < rounds; round++) {
        Answer[] answers = askBoth(ours, vm, shape, schedule.end(shape, warmRounds + round), round,
            schedule.cachesOff());
        oursAnswer = answers[0];
        vmAnswer = answers[1];
        oursNanos[round] = oursAnswer.nanos();
        vmNanos[round] = vmAnswer.nanos();
        if (shape.outlierSelector() != null && !Arrays.equals(oursAnswer.verdicts(), vmAnswer.verdicts())) {
          throw new IllegalStateException(shape.name() + ": chronix_outlier " + Arrays.toString(oursAnswer.verdicts())
              + " differs from the client-side analysis " + Arrays.toString(vmAnswer.verdicts()));
        }
      }
      double oursMs = median(oursNanos) / 1e6;
      double vmMs = median(vmNanos) / 1e6;
      allFaster &= oursMs <= vmMs;
      System.out.printf("| %s | %s | %.2f | %.2f | %.2f | %d / %d | %.1f / %.1f | %d |%n", shape.dataset(), shape.name(),
          oursMs, vmMs, oursMs / vmMs, oursAnswer.series(), vmAnswer.series(), firstMs[0], firstMs[1], warmRounds);
    }
    return allFaster;
  }

  private static String describe(List<Shape> shapes) {
    StringBuilder text = new StringBuilder();
    for (Shape shape : shapes) {
      text.append("\n  ").append(shape.dataset()).append(" / ").append(shape.name()).append(": ")
          .append(shape.listing() != null ? shape.listing() + (shape.query() == null ? "" : " match[]=" + shape.query())
              : shape.outlierSelector() == null ? shape.query()
              : "chronix_outlier(" + shape.outlierSelector() + "[1h]) | VM: " + shape.outlierSelector() + "[25h] + client");
    }
    return text.toString();
  }

  // ---- data

  private static long load(URI target, List<P4File> p4) throws Exception {
    RemoteWriteLoader loader = new RemoteWriteLoader(target.resolve("/api/v1/write"), SAMPLES_PER_REQUEST);
    for (P4File file : p4) {
      Points points = file.points();
      long[] t = new long[points.size()];
      double[] v = new double[points.size()];
      for (int i = 0; i < t.length; i++) {
        t[i] = points.timestamp(i) / 1_000_000L;
        v[i] = points.value(i);
      }
      loader.add(new RemoteWriteLoader.Series(p4Labels(file), t, v));
    }
    for (int host = 0; host < HOSTS; host++) {
      for (String metric : GAUGES) {
        loader.add(synthetic(metric, host, false));
      }
      for (String metric : COUNTERS) {
        loader.add(synthetic(metric, host, true));
      }
    }
    long sent = loader.finish();
    System.out.printf("  %,d requests refused (429, 503) and sent again after 100 ms%n", loader.retries());
    return sent;
  }

  /** The synthetic series' next {@value #LIVE_MINUTES} minutes: gauges level, counters growing on. */
  private static long loadLive(URI target) throws Exception {
    RemoteWriteLoader loader = new RemoteWriteLoader(target.resolve("/api/v1/write"), SAMPLES_PER_REQUEST);
    for (int host = 0; host < HOSTS; host++) {
      for (String metric : GAUGES) {
        loader.add(next(synthetic(metric, host, false), false));
      }
      for (String metric : COUNTERS) {
        loader.add(next(synthetic(metric, host, true), true));
      }
    }
    return loader.finish();
  }

  private static RemoteWriteLoader.Series next(RemoteWriteLoader.Series day, boolean counter) {
    double last = day.values()[day.values().length - 1];
    long[] t = new long[LIVE_MINUTES];
    double[] v = new double[LIVE_MINUTES];
    for (int i = 0; i < LIVE_MINUTES; i++) {
      t[i] = SYNTHETIC_END + (i + 1) * MINUTE;
      v[i] = counter ? last + 50.0 * (i + 1) : last;
    }
    return new RemoteWriteLoader.Series(day.labels(), t, v);
  }

  private static SortedMap<String, String> p4Labels(P4File file) {
    SortedMap<String, String> labels = new TreeMap<>(file.key().attributes());
    labels.put("__name__", file.key().name());
    return labels;
  }

  /** A day of one sample a minute; gauges wander around a level with daily swing, counters grow. */
  private static RemoteWriteLoader.Series synthetic(String metric, int host, boolean counter) {
    Random random = new Random(metric.hashCode() * 31L + host);
    int n = 24 * 60 + 1;
    long[] t = new long[n];
    double[] v = new double[n];
    double level = 10 + random.nextInt(50);
    double total = random.nextInt(1_000_000);
    for (int i = 0; i < n; i++) {
      t[i] = SYNTHETIC_END - (n - 1 - i) * MINUTE;
      if (counter) {
        total += random.nextInt(100);
        v[i] = total;
      } else {
        double daily = Math.sin(2 * Math.PI * i / (24 * 60.0) + host);
        double value = level * (1 + 0.3 * daily) + random.nextGaussian();
        boolean spike = host == 42 && i % 400 == 399;
        v[i] = Math.round((spike ? value * 5 : value) * 100) / 100.0;
      }
    }
    SortedMap<String, String> labels = new TreeMap<>();
    labels.put("__name__", metric);
    labels.put("host", String.format("h%04d", host));
    labels.put("dc", "dc" + host % DATA_CENTRES);
    labels.put("job", "node");
    return new RemoteWriteLoader.Series(labels, t, v);
  }

  // ---- shapes

  private static List<Shape> syntheticShapes() {
    String one = "cpu_usage_percent{host=\"h0042\"}";
    return List.of(
        new Shape("synthetic", "one series, 1 h", one, false, HOUR, 15_000, SYNTHETIC_END, null),
        new Shape("synthetic", "sum by over 100 series, 24 h", "sum by (host) (cpu_usage_percent{dc=\"dc3\"})", false,
            24 * HOUR, 120_000, SYNTHETIC_END, null),
        new Shape("synthetic", "topk over all 10,000 series", "topk(10, {job=\"node\"})", true, 0, 0, SYNTHETIC_END, null),
        // a table panel or an alert at "now": every series' last sample in the lookback, the time
        // moving back half a second a round from 4 minutes after the data (never more than 3 before)
        new Shape("synthetic", "topk over all 10,000 series at the data's end", "topk(10, {job=\"node\"})", true, 0,
            500, SYNTHETIC_END + 4 * MINUTE, null),
        new Shape("synthetic", "rate over 1,000 counters, 6 h", "sum by (dc) (rate(requests_total[5m]))", false,
            6 * HOUR, MINUTE, SYNTHETIC_END, null),
        new Shape("synthetic", "chronix_outlier panel, 24 h", null, false, 24 * HOUR, 5 * MINUTE, SYNTHETIC_END, one),
        Shape.listing("synthetic", "label names, 6 h", "/api/v1/labels", null, SYNTHETIC_END),
        Shape.listing("synthetic", "label values of host, 6 h", "/api/v1/label/host/values", null, SYNTHETIC_END),
        Shape.listing("synthetic", "label values of host for a metric, 6 h", "/api/v1/label/host/values",
            "cpu_usage_percent", SYNTHETIC_END),
        Shape.listing("synthetic", "series of a metric, 6 h", "/api/v1/series", "cpu_usage_percent", SYNTHETIC_END));
  }

  /** Dashboards at "now" while the last minutes are buffered: the listings and two panels. */
  private static List<Shape> liveShapes() {
    return List.of(
        new Shape("live", "one series, 1 h", "cpu_usage_percent{host=\"h0042\"}", false, HOUR, 15_000, LIVE_END, null),
        new Shape("live", "sum by over 100 series, 1 h", "sum by (host) (cpu_usage_percent{dc=\"dc3\"})", false, HOUR,
            15_000, LIVE_END, null),
        Shape.listing("live", "label names, 6 h", "/api/v1/labels", null, LIVE_END),
        Shape.listing("live", "label values of host, 6 h", "/api/v1/label/host/values", null, LIVE_END),
        Shape.listing("live", "label values of host for a metric, 6 h", "/api/v1/label/host/values",
            "cpu_usage_percent", LIVE_END),
        Shape.listing("live", "series of a metric, 6 h", "/api/v1/series", "cpu_usage_percent", LIVE_END));
  }

  /**
   * P4's shapes, chosen from the files: the longest series whose value changes, every series of
   * the host, and the counter (a series that never decreases and does increase) present in the
   * most series. One counter name only: rate drops the name, and two names with the same other
   * labels would make its result hold one label set twice, which PromQL rejects.
   */
  private static List<Shape> p4Shapes(List<P4File> p4) {
    P4File longest = null;
    long end = Long.MIN_VALUE;
    Map<String, Integer> counters = new TreeMap<>();
    java.util.Set<SortedMap<String, String>> distinct = new java.util.HashSet<>();
    for (P4File file : p4) {
      distinct.add(p4Labels(file));
      Points p = file.points();
      boolean changes = false;
      for (int i = 1; i < p.size() && !changes; i++) {
        changes = p.value(i) != p.value(0);
      }
      if (changes && (longest == null || p.size() > longest.points().size())) {
        longest = file;
      }
      end = Math.max(end, p.timestamp(p.size() - 1) / 1_000_000L);
      boolean increasing = p.size() > 100 && p.value(p.size() - 1) > p.value(0);
      for (int i = 1; i < p.size() && increasing; i++) {
        increasing = p.value(i) >= p.value(i - 1);
      }
      if (increasing) {
        counters.merge(file.key().name(), 1, Integer::sum);
      }
    }
    String counter = counters.entrySet().stream().max(Map.Entry.comparingByValue())
        .orElseThrow(() -> new IllegalStateException("no counter among the P4 files")).getKey();
    end = end / MINUTE * MINUTE;
    StringBuilder one = new StringBuilder("{");
    p4Labels(longest).forEach((name, value) -> one.append(one.length() > 1 ? ", " : "").append(name).append("=")
        .append(quoted(value)));
    String selector = one.append('}').toString();
    String host = quoted(longest.key().attributes().get("host"));
    return List.of(
        new Shape("P4", "one series, 1 h", selector, false, HOUR, 15_000, end, null),
        new Shape("P4", "sum by over all " + distinct.size() + " series, 24 h",
            "sum by (process, group) ({host=" + host + "})", false, 24 * HOUR, 120_000, end, null),
        new Shape("P4", "topk over all series", "topk(10, {host=" + host + "})", true, 0, 0, end, null),
        new Shape("P4", "rate over a counter, 6 h",
            "sum by (process) (rate({__name__=" + quoted(counter) + "}[5m]))", false, 6 * HOUR, MINUTE, end, null),
        new Shape("P4", "chronix_outlier panel, 24 h", null, false, 24 * HOUR, 5 * MINUTE, end, selector));
  }

  private static String quoted(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  // ---- queries

  /** Ours and VictoriaMetrics' answers for one window, {@code [ours, VM]}; who goes first alternates by round. */
  private static Answer[] askBoth(URI ours, URI vm, Shape shape, long end, int round, boolean cachesOff)
      throws Exception {
    boolean oursFirst = round % 2 == 0;
    Answer a = oursFirst ? askOurs(ours, shape, end, cachesOff) : askPeer(vm, shape, end, cachesOff);
    Answer b = oursFirst ? askPeer(vm, shape, end, cachesOff) : askOurs(ours, shape, end, cachesOff);
    return oursFirst ? new Answer[] {a, b} : new Answer[] {b, a};
  }

  /** @param cacheOff with {@code nocache=1}: our range cache neither asked nor filled, as VictoriaMetrics' */
  private static Answer askOurs(URI base, Shape shape, long end, boolean cacheOff) throws Exception {
    if (shape.outlierSelector() != null) {
      long start = System.nanoTime();
      JsonNode body = post(base, "/api/v1/query_range", withoutCache(cacheOff, Map.of("query", "chronix_outlier("
          + shape.outlierSelector() + "[1h])", "start", seconds(end - shape.rangeMillis()), "end", seconds(end),
          "step", seconds(shape.stepMillis()))));
      JsonNode values = body.at("/data/result/0/values");
      double[] verdicts = new double[values.size()];
      for (int i = 0; i < verdicts.length; i++) {
        verdicts[i] = Double.parseDouble(values.get(i).get(1).asText());
      }
      return new Answer(System.nanoTime() - start, body.at("/data/result").size(), verdicts.length, verdicts);
    }
    return ask(base, shape, end, cacheOff);
  }

  /** @param cacheOff with {@code nocache=1}: VictoriaMetrics' result cache neither asked nor filled */
  private static Answer askPeer(URI base, Shape shape, long end, boolean cacheOff) throws Exception {
    if (shape.outlierSelector() == null) {
      return ask(base, shape, end, cacheOff);
    }
    long start = System.nanoTime();
    long from = end - shape.rangeMillis() - HOUR;
    JsonNode body = post(base, "/api/v1/query", withoutCache(cacheOff, Map.of("query",
        shape.outlierSelector() + "[" + (end - from) / 1000 + "s]", "time", seconds(end))));
    JsonNode values = body.at("/data/result/0/values");
    long[] t = new long[values.size()];
    double[] v = new double[values.size()];
    for (int i = 0; i < t.length; i++) {
      t[i] = values.get(i).get(0).decimalValue().movePointRight(3).longValue();
      v[i] = Double.parseDouble(values.get(i).get(1).asText());
    }
    Analysis outlier = (Analysis) Functions.parse("outlier");
    int steps = (int) (shape.rangeMillis() / shape.stepMillis()) + 1;
    List<Double> verdicts = new ArrayList<>();
    int from0 = 0;
    int to = 0;
    for (int s = 0; s < steps; s++) {
      long stepEnd = end - shape.rangeMillis() + s * shape.stepMillis();
      while (to < t.length && t[to] <= stepEnd) {
        to++;
      }
      while (from0 < to && t[from0] <= stepEnd - HOUR) {
        from0++;
      }
      if (to == from0) {
        continue; // no samples in the window: no point, as the PromQL side
      }
      Points window = new Points(to - from0);
      for (int i = from0; i < to; i++) {
        window.add(t[i] * 1_000_000L, v[i]);
      }
      verdicts.add(outlier.apply(window, q -> null).matches() ? 1.0 : 0.0);
    }
    return new Answer(System.nanoTime() - start, body.at("/data/result").size(), t.length,
        verdicts.stream().mapToDouble(Double::doubleValue).toArray());
  }

  private static Answer ask(URI base, Shape shape, long end, boolean cacheOff) throws Exception {
    long start = System.nanoTime();
    if (shape.listing() != null) {
      Map<String, String> form = new LinkedHashMap<>();
      if (shape.query() != null) {
        form.put("match[]", shape.query());
      }
      form.put("start", seconds(end - shape.rangeMillis()));
      form.put("end", seconds(end));
      JsonNode data = post(base, shape.listing(), form).get("data");
      return new Answer(System.nanoTime() - start, data.size(), data.size(), null);
    }
    JsonNode body = shape.instant()
        ? post(base, "/api/v1/query", withoutCache(cacheOff, Map.of("query", shape.query(), "time", seconds(end))))
        : post(base, "/api/v1/query_range", withoutCache(cacheOff, Map.of("query", shape.query(),
            "start", seconds(end - shape.rangeMillis()), "end", seconds(end), "step", seconds(shape.stepMillis()))));
    long points = 0;
    for (JsonNode series : body.at("/data/result")) {
      points += series.has("values") ? series.get("values").size() : 1;
    }
    return new Answer(System.nanoTime() - start, body.at("/data/result").size(), points, null);
  }

  /** The form, with {@code nocache=1} added where asked (the switch of both servers' result caches). */
  static Map<String, String> withoutCache(boolean cacheOff, Map<String, String> form) {
    if (!cacheOff) {
      return form;
    }
    Map<String, String> without = new LinkedHashMap<>(form);
    without.put("nocache", "1");
    return without;
  }

  /** A form POST as Grafana sends it, gzip accepted; the answer parsed. */
  private static JsonNode post(URI base, String path, Map<String, String> form) throws Exception {
    StringBuilder body = new StringBuilder();
    for (Map.Entry<String, String> entry : new LinkedHashMap<>(form).entrySet()) {
      body.append(body.length() > 0 ? "&" : "").append(entry.getKey()).append('=')
          .append(URLEncoder.encode(entry.getValue(), StandardCharsets.UTF_8));
    }
    HttpResponse<byte[]> response = HTTP.send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofMinutes(2))
        .header("Content-Type", "application/x-www-form-urlencoded").header("Accept-Encoding", "gzip")
        .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofByteArray());
    byte[] bytes = response.body();
    if ("gzip".equals(response.headers().firstValue("Content-Encoding").orElse(""))) {
      try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
        bytes = in.readAllBytes();
      }
    }
    JsonNode answer = JSON.readTree(bytes);
    if (response.statusCode() != 200 || !"success".equals(answer.path("status").asText())) {
      throw new IllegalStateException(base + path + " " + form + " -> " + response.statusCode() + " " + answer);
    }
    return answer;
  }

  private static String seconds(long millis) {
    return java.math.BigDecimal.valueOf(millis, 3).stripTrailingZeros().toPlainString();
  }

  private static void expectOk(HttpResponse<String> response, String what) throws IOException {
    if (response.statusCode() / 100 != 2) {
      throw new IOException(what + " answered " + response.statusCode() + ": " + response.body());
    }
  }

  private static double median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
  }
}
