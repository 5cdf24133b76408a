package io.chronix.benchmarks.peers;

import io.chronix.benchmarks.ImportBenchmark;
import io.chronix.benchmarks.ProcessStats;
import io.chronix.benchmarks.StoreFootprint;
import io.chronix.benchmarks.VictoriaMetricsProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The peer comparison: VictoriaMetrics and InfluxDB 1.x (Debian packages) and ours, one after the
 * other on this machine, each on a fresh data directory, fed the same prepared requests by the
 * same client and asked the same queries.
 *
 * <p>Per server: (1) P4 as line protocol, 10,000 lines a request, 2 client threads, timed to the
 * last acknowledgement, then its flush timed on its own; (2) the data directory left to settle,
 * the server stopped cleanly, everything under its data directory counted; (3) the server started
 * again on that directory and the query mix asked ({@link QueryMix}); (4) the 10,000-series
 * stream, (5) P4 again through Prometheus remote write and (6) once more as line protocol, each as
 * new series: (6) against (1) shows a warmed-up JVM against a cold one. Each phase reports the
 * server's CPU seconds and peak resident memory ({@code /proc}). Before all that, the loads of (1),
 * (4) and (5) on fresh Chronix and VictoriaMetrics servers by turns, round after round ({@link
 * IngestRounds}): the ingest ratio from medians rather than from one pass each. After them, the
 * query mix once more with VictoriaMetrics and ours running side by side and taking turns a round at
 * a time ({@link QueryRounds}). Before anything,
 * the client sends the loads to a sink ({@link ClientWarmUp}): no server meets a cold client.
 */
public final class PeerComparison {

  static final int CLIENT_THREADS = 2;

  private PeerComparison() {}

  /** Settings of a full run and of {@code --quick}. */
  record Plan(boolean quick, int syntheticRounds, int seriesPerRange, int warmUps, int rounds, Duration settleQuiet,
      int ingestRounds, int queryRounds) {
    static Plan of(boolean quick) {
      return quick ? new Plan(true, 30, 4, 1, 1, Duration.ofSeconds(2), 2, 2)
          : new Plan(false, 300, 20, 3, 3, Duration.ofSeconds(6), 5, 10);
    }
  }

  public static void main(String[] args) throws Exception {
    boolean quick = List.of(args).contains("--quick");
    Path input = Path.of(List.of(args).stream().filter(a -> !a.startsWith("--")).findFirst().orElse("../shared/data/p4"));
    Plan plan = Plan.of(quick);
    Workloads workloads = Workloads.prepare(input, plan.syntheticRounds());
    QueryMix mix = QueryMix.plan(workloads.series, plan.seriesPerRange(), 42);
    System.err.printf("P4: %,d values in %d series, %d requests; synthetic: %,d values%n",
        workloads.p4LineProtocol.values(), workloads.series.size(), workloads.p4LineProtocol.bodies().size(),
        workloads.synthetic.values());

    String vmBinary = VictoriaMetricsProcess.install();
    String influxBinary = InfluxDbPeer.install();
    Starter victoriaMetrics = (dir, log) -> VictoriaMetricsPeer.start(vmBinary, dir, log);
    ClientWarmUp.run(List.of(workloads.p4LineProtocol, workloads.p4RemoteWrite));
    IngestRounds.Contender ours = new IngestRounds.Contender("Chronix", ChronixPeer::start);
    IngestRounds.Contender reference = new IngestRounds.Contender("VictoriaMetrics", victoriaMetrics);
    IngestRounds rounds = IngestRounds.run(List.of(ours, reference), workloads, plan.ingestRounds());
    List<PeerRun> runs = new ArrayList<>();
    runs.add(measure(new PeerRun("VictoriaMetrics", VictoriaMetricsProcess.version(vmBinary)), victoriaMetrics,
        workloads, mix, plan));
    runs.add(measure(new PeerRun("InfluxDB", InfluxDbPeer.version(influxBinary)),
        (dir, log) -> InfluxDbPeer.start(influxBinary, dir, log), workloads, mix, plan));
    runs.add(measure(new PeerRun("Chronix", "this build (./chronix start, default settings)"),
        ChronixPeer::start, workloads, mix, plan));

    QueryRounds queryRounds = QueryRounds.run(List.of(reference, ours), workloads, mix, plan.warmUps(),
        plan.queryRounds(), plan.settleQuiet());

    PeerReport report = new PeerReport(plan, workloads, mix, runs, rounds, queryRounds);
    System.out.println(report.markdown());
    report.write(Path.of("docs"));
  }

  /** Starts a server on a directory, its output going to a log outside it. */
  interface Starter {
    PeerServer start(Path dataDir, Path log) throws Exception;
  }

  /** Work on a server's data directory and the log beside it. */
  interface OnDirectory<T> {
    T run(Path dataDir, Path log) throws Exception;
  }

  /**
   * Runs {@code work} on a fresh data directory with a log outside it, says where the log is when
   * the work fails (the log is kept then), and deletes the directory either way.
   */
  static <T> T onFreshDirectory(String name, OnDirectory<T> work) throws Exception {
    Path dataDir = Files.createTempDirectory("peers-" + name);
    Path log = Files.createTempFile("peers-" + name, ".log");
    try {
      T result = work.run(dataDir, log);
      Files.deleteIfExists(log);
      return result;
    } catch (Exception | Error e) {
      System.err.println(name + " failed; its log: " + log);
      throw e;
    } finally {
      ImportBenchmark.deleteRecursively(dataDir);
    }
  }

  private static PeerRun measure(PeerRun run, Starter starter, Workloads workloads, QueryMix mix, Plan plan)
      throws Exception {
    return onFreshDirectory(run.name, (dataDir, log) -> {
      try (PeerServer server = starter.start(dataDir, log)) {
        System.err.printf("%s: started, loading P4 as line protocol%n", run.name);
        run.loads.put("p4", load(server, workloads.p4LineProtocol, server.lineProtocolWrite()));
        DirectorySettle.await(dataDir, plan.settleQuiet(), Duration.ofMinutes(3));
        server.stop();
      }
      run.diskBytes = ImportBenchmark.directoryBytes(dataDir);
      run.diskSplit = run.name.equals("Chronix") ? StoreFootprint.of(dataDir, "chronix").split() : topLevel(dataDir);

      try (PeerServer server = starter.start(dataDir, log)) {
        System.err.printf("%s: restarted on its data, querying%n", run.name);
        ProcessStats.resetPeak(server.pid());
        ProcessStats before = ProcessStats.of(server.pid());
        run.latencies = mix.run(server, plan.warmUps(), plan.rounds());
        run.queryCost = ProcessStats.of(server.pid()).since(before);

        System.err.printf("%s: the 10,000-series stream, then remote write%n", run.name);
        run.loads.put("synthetic", load(server, workloads.synthetic, server.lineProtocolWrite()));
        run.loads.put("remote", load(server, workloads.p4RemoteWrite, server.remoteWrite()));
        System.err.printf("%s: P4 again as new series, into the warmed-up server%n", run.name);
        run.loads.put("again", load(server, workloads.p4Again, server.lineProtocolWrite()));
        server.stop();
      }
      return run;
    });
  }

  static PeerRun.Load load(PeerServer server, IngestLoad load, java.net.URI endpoint) throws Exception {
    ProcessStats.resetPeak(server.pid());
    ProcessStats before = ProcessStats.of(server.pid());
    Map<String, Double> threadsBefore = ProcessStats.cpuSecondsByThread(server.pid());
    IngestLoad.Outcome outcome = load.send(endpoint, CLIENT_THREADS);
    // where a JVM's CPU went (thread names say it; the peers' threads have no telling names)
    System.err.printf(java.util.Locale.ROOT, "%s, %s: CPU by thread group until the last acknowledgement %s%n",
        server.name(), load.name(), ThreadGroups.byGroup(threadsBefore, ProcessStats.cpuSecondsByThread(server.pid())));
    long flushStart = System.nanoTime();
    server.flush();
    long flushNanos = System.nanoTime() - flushStart;
    return new PeerRun.Load(outcome, flushNanos, ProcessStats.of(server.pid()).since(before));
  }

  private static Map<String, Long> topLevel(Path dir) throws java.io.IOException {
    Map<String, Long> split = new TreeMap<>();
    try (var entries = Files.list(dir)) {
      for (Path entry : entries.toList()) {
        split.put(entry.getFileName().toString(), ImportBenchmark.directoryBytes(entry));
      }
    }
    return split;
  }
}
