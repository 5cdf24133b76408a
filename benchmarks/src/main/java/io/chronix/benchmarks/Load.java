package io.chronix.benchmarks;

import io.chronix.benchmarks.load.GatlingJvm;
import io.chronix.benchmarks.load.GatlingResults;
import io.chronix.benchmarks.load.GatlingRun;
import io.chronix.benchmarks.load.LoadReport;
import io.chronix.benchmarks.load.LoadShape;
import io.chronix.benchmarks.load.ServerSampler;
import java.io.IOException;
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
 * <p>Run: {@code benchmarks/run Load [--quick] [--minutes N]} (10 minutes by default, 60 s with
 * {@code --quick}); Gatling's HTML report lands in {@code benchmarks/target/gatling}.
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
    long seconds = seconds(args);
    Path dataDir = Files.createTempDirectory("chronix-load-");
    Path log = OUT.resolve("load-chronix.log");
    Files.createDirectories(OUT);
    String date = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    System.out.printf("Load: %,.0f points/s from %,d agents + %.0f dashboard queries/s for %d s; server log %s%n",
        LoadShape.POINTS_PER_SECOND, LoadShape.AGENTS, 3 * LoadShape.QUERIES_PER_SECOND_PER_TYPE, seconds, log);
    // 180,000 active series (1,000 agents x 180) need about 1.1 KB each in the buffers plus 24
    // bytes a point: the launcher's defaults (384m heap, buffers at most 256 MiB) hold about
    // 120,000 with room for their points;
    // this load is sized as a user sizes a server for it (conf/chronix.properties: jvm.heap,
    // buffer.maxBytes, and for a larger heap G1, started whole and touched: the parallel
    // collector's full collections of a 2 GB heap stalled every request for a second or two); the
    // launcher's other options stay (jvm.options is replaced whole)
    try (ChronixProcess server = ChronixProcess.start(dataDir, log, "jvm.heap=" + LOAD_HEAP,
        "buffer.maxBytes=" + LOAD_BUFFER_BYTES, "jvm.options=" + forLargeHeap(defaultJvmOptions(), LOAD_HEAP))) {
      String base = server.base().toString().replaceAll("/+$", "");
      Path run;
      List<ServerSampler.Sample> samples;
      try (ServerSampler sampler = ServerSampler.start(server.pid(), server.base(),
          Duration.ofSeconds(seconds >= 300 ? 5 : 2))) {
        run = GatlingRun.run(base, seconds, OUT.resolve("gatling"), "chronix load " + seconds + " s");
        samples = sampler.samples();
      }
      server.stop();
      LoadReport report = new LoadReport(GatlingResults.read(run, LoadShape.REQUESTS), samples, seconds);
      System.out.println();
      System.out.printf("## Load with Gatling: %d s, %s (report %s)%n%n", seconds, date, run.resolve("index.html"));
      System.out.println(report.markdown());
      System.out.println("Verdict:");
      System.out.print(report.verdict());
    } finally {
      deleteRecursively(dataDir);
    }
  }

  private static long seconds(String[] args) {
    long seconds = 600;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--quick" -> seconds = 60;
        case "--minutes" -> seconds = Math.round(Double.parseDouble(args[++i]) * 60);
        default -> throw new IllegalArgumentException("usage: benchmarks/run Load [--quick] [--minutes N]");
      }
    }
    return seconds;
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
