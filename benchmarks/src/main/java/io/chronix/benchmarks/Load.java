package io.chronix.benchmarks;

import io.chronix.benchmarks.load.GatlingJvm;
import io.chronix.benchmarks.load.GatlingResults;
import io.chronix.benchmarks.load.GatlingRun;
import io.chronix.benchmarks.load.LoadReport;
import io.chronix.benchmarks.load.LoadShape;
import io.chronix.benchmarks.load.ServerDurations;
import io.chronix.benchmarks.load.ServerSampler;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The performance issue's Gatling load against our server as a new user starts it (launcher
 * defaults, {@code wal.fsync=always}, a fresh data directory), with the server watched from
 * outside while it runs, because the goal is as much about what the load costs and whether it
 * accumulates as about latency. Prints the figures as Markdown and the verdict; exits 0 whenever
 * the run itself worked, whatever the verdict.
 *
 * <p>Run: {@code benchmarks/run Load [--quick] [--minutes N] [--peers]} (10 minutes by default, 60 s
 * with {@code --quick}); Gatling's HTML report lands in {@code benchmarks/target/gatling}. With
 * {@code --peers} the dashboards ask in PromQL alone, and VictoriaMetrics takes the same load from
 * the same client after ours, each on a fresh directory: the p99 goal's baseline on this machine.
 */
public final class Load {

  /** The server's heap for this load (see where the server is started). */
  private static final String LOAD_HEAP = "2g";
  /** A third of that heap for the buffers (the default caps them at 256 MiB). */
  private static final long LOAD_BUFFER_BYTES = 640L << 20;

  private static final Path OUT = Path.of("benchmarks", "target");

  private Load() {}

  public static void main(String[] args) throws Exception {
    if (!GatlingJvm.ready()) {
      System.exit(GatlingJvm.relaunch(Load.class, args));
    }
    Options options = Options.parse(args);
    Files.createDirectories(OUT);
    LoadShape.Mix mix = options.peers() ? LoadShape.Mix.PROMQL : LoadShape.Mix.CHRONIX;
    System.out.printf("Load: %,.0f points/s from %,d agents + %.0f dashboard queries/s (%s) for %d s%s%n",
        LoadShape.POINTS_PER_SECOND, LoadShape.AGENTS, mix.dashboards().size() * LoadShape.QUERIES_PER_SECOND_PER_TYPE,
        String.join(", ", mix.dashboards()), options.seconds(), options.peers() ? ", ours, then VictoriaMetrics'" : "");
    Result ours = chronix(options.seconds(), mix);
    print("Load with Gatling", ours);
    if (options.peers()) {
      Result theirs = victoriaMetrics(options.seconds(), mix);
      print("The same load against VictoriaMetrics", theirs);
      System.out.println("Ours / VictoriaMetrics' (p50, p95, p99 of each request type):");
      System.out.print(LoadReport.ratios(ours.report(), theirs.report()));
    }
  }

  /** A run's start, its Gatling report's directory, and the figures. */
  private record Result(String date, Path run, LoadReport report) {}

  private static void print(String title, Result result) {
    System.out.println();
    System.out.printf("## %s: %d s, %s (report %s)%n%n", title, result.report().seconds(), result.date(),
        result.run().resolve("index.html"));
    System.out.println(result.report().markdown());
    System.out.println("Verdict:");
    System.out.print(result.report().verdict());
  }

  /** The load against our server, started as a user sizes it for this load, on a fresh data directory. */
  private static Result chronix(long seconds, LoadShape.Mix mix) throws Exception {
    Path dataDir = Files.createTempDirectory("chronix-load-");
    Path log = OUT.resolve("load-chronix.log");
    String date = now();
    System.out.println("server log " + log);
    // 180,000 active series (1,000 agents x 180) need about 1.1 KB each in the buffers plus 24
    // bytes a point: the launcher's defaults (384m heap, buffers at most 256 MiB) hold about
    // 120,000 with room for their points;
    // this load is sized as a user sizes a server for it (conf/chronix.properties: jvm.heap,
    // buffer.maxBytes, and for a larger heap G1, started whole and touched: the parallel
    // collector's full collections of a 2 GB heap stalled every request for a second or two); the
    // launcher's other options stay (jvm.options is replaced whole)
    try (ChronixProcess server = ChronixProcess.start(dataDir, log, "jvm.heap=" + LOAD_HEAP,
        "buffer.maxBytes=" + LOAD_BUFFER_BYTES, "jvm.options=" + forLargeHeap(defaultJvmOptions(), LOAD_HEAP))) {
      return measure(date, server.base(), ServerSampler.start(server.pid(), server.base(), sampleInterval(seconds)),
          seconds, mix, "chronix load " + seconds + " s", server::stop);
    } finally {
      deleteRecursively(dataDir);
    }
  }

  /**
   * The same load from the same client against VictoriaMetrics (its Debian package, default flags
   * but for the retention), on a fresh storage directory: what this machine and client allow a
   * peer under the goal the issue sets.
   */
  private static Result victoriaMetrics(long seconds, LoadShape.Mix mix) throws Exception {
    String binary = VictoriaMetricsProcess.install();
    Path storage = Files.createTempDirectory("victoria-metrics-load-");
    Path log = OUT.resolve("load-victoria-metrics.log");
    Files.deleteIfExists(log);
    String date = now();
    System.out.println("VictoriaMetrics " + VictoriaMetricsProcess.version(binary) + ", log " + log);
    try (VictoriaMetricsProcess server = VictoriaMetricsProcess.start(binary, storage, log)) {
      return measure(date, server.base(), ServerSampler.processOnly(server.pid(), sampleInterval(seconds)), seconds,
          mix, "victoria-metrics load " + seconds + " s", server::stop);
    } finally {
      deleteRecursively(storage);
    }
  }

  /** A server's way to stop cleanly once the load is over, before its directory goes. */
  private interface Stop {
    void stop() throws InterruptedException;
  }

  /** Gatling's run against the started server at {@code base} while {@code sampler} watches; then the server stops. */
  private static Result measure(String date, URI base, ServerSampler sampler, long seconds, LoadShape.Mix mix,
      String description, Stop server) throws Exception {
    Path run;
    List<ServerSampler.Sample> samples;
    try (sampler) {
      run = GatlingRun.run(baseUrl(base), seconds, mix, OUT.resolve("gatling"), description);
      samples = sampler.samples();
    }
    ServerDurations durations = ServerDurations.read(base);
    server.stop();
    return new Result(date, run, new LoadReport(GatlingResults.read(run, mix.requests()), samples, durations,
        seconds));
  }

  private static String now() {
    return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
  }

  private static Duration sampleInterval(long seconds) {
    return Duration.ofSeconds(seconds >= 300 ? 5 : 2);
  }

  private static String baseUrl(URI base) {
    return base.toString().replaceAll("/+$", "");
  }

  /**
   * The command line: the injection's length, and whether VictoriaMetrics takes the same load
   * after ours, both with the dashboards' PromQL mix ({@link LoadShape.Mix#PROMQL}), which it
   * answers as well.
   */
  record Options(long seconds, boolean peers) {
    static final String USAGE = "usage: benchmarks/run Load [--quick] [--minutes N] [--peers]";

    static Options parse(String[] args) {
      long seconds = 600;
      boolean peers = false;
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--quick" -> seconds = 60;
          case "--minutes" -> {
            if (i + 1 == args.length) {
              throw new IllegalArgumentException("--minutes needs a number; " + USAGE);
            }
            seconds = minutes(args[++i]);
          }
          case "--peers" -> peers = true;
          default -> throw new IllegalArgumentException("unknown option '" + args[i] + "'; " + USAGE);
        }
      }
      if (seconds <= 0) {
        throw new IllegalArgumentException("the load needs at least a second; " + USAGE);
      }
      return new Options(seconds, peers);
    }

    private static long minutes(String value) {
      try {
        return Math.round(Double.parseDouble(value) * 60);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--minutes needs a number, not '" + value + "'; " + USAGE, e);
      }
    }
  }

  private static void deleteRecursively(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }

  /** The launcher's default JVM options (conf/chronix.properties), which a setting replaces whole. */
  private static String defaultJvmOptions() throws IOException {
    java.util.Properties conf = new java.util.Properties();
    try (var reader = Files.newBufferedReader(Path.of("conf", "chronix.properties"))) {
      conf.load(reader);
    }
    return conf.getProperty("jvm.options", "");
  }

  /**
   * The options as conf/chronix.properties advises them for a larger heap: G1 instead of the
   * collector they name (the JVM refuses two), without the parallel collector's floor under the
   * young generation, which G1 sizes for its pause goal, and the heap committed whole and touched
   * at start ({@code -Xms} of its size, {@code -XX:+AlwaysPreTouch}): grown as it filled, its
   * pages were first touched inside the collector's pauses (docs/benchmarks.md).
   */
  static String forLargeHeap(String options, String heap) {
    return (options.replaceAll("-XX:\\+Use\\w+GC", "").replaceAll("-XX:NewSize=\\S+", "").replaceAll("-Xms\\S+", "")
        .trim() + " -XX:+UseG1GC -Xms" + heap + " -XX:+AlwaysPreTouch").trim().replaceAll("\\s+", " ");
  }
}
