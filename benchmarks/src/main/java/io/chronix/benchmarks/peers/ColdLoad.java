package io.chronix.benchmarks.peers;

import io.chronix.benchmarks.ImportBenchmark;
import io.chronix.benchmarks.ProcessStats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Where a freshly started server's CPU goes during its first load: P4 as line protocol into a
 * new {@code ./chronix start} (JVM options from {@code CHRONIX_JAVA_OPTS}, as the launcher takes
 * them), CPU seconds per thread (the JIT's compiler threads apart from the request threads), then
 * the same load again as new series into the now warm server. With {@code --all}, the loads of
 * the peer comparison in its order (P4, the 10,000-series stream, remote write, P4 again), each
 * flushed, with each load's CPU by thread group (request threads, JIT, collector, Solr's commits and
 * merges) and the time of the flush after it: ours alone, to try JVM options quickly.
 *
 * {@code --threads=N} sends with N client threads instead of the comparison's two (how much of a
 * load's time the server waits for its clients). {@code --settle=S} waits S seconds between the
 * server's readiness and the first load (what the server still does right after it starts). The
 * client sends the loads to a sink first ({@link ClientWarmUp}), as the comparison does.
 *
 * {@code --quick} with {@code --all} sends the quick comparison's shorter stream. Each
 * {@code --set=key=value} is passed to the server as {@code --set key=value} (a setting of
 * {@code conf/chronix.properties} to try against the defaults).
 *
 * <pre>benchmarks/run peers.ColdLoad [p4 dir] [--all [--quick]] [--threads=N] [--settle=S] [--set=key=value]...</pre>
 */
public final class ColdLoad {

  private ColdLoad() {}

  public static void main(String[] args) throws Exception {
    boolean all = java.util.List.of(args).contains("--all");
    // client threads sending each load: the comparison's two unless --threads=N
    int threads = (int) option(args, "--threads=", PeerComparison.CLIENT_THREADS);
    Path input = Path.of(java.util.List.of(args).stream().filter(a -> !a.startsWith("--")).findFirst()
        .orElse("../shared/data/p4"));
    // --quick: the quick comparison's shorter stream, where creating its 10,000 series weighs most
    boolean quick = java.util.List.of(args).contains("--quick");
    Workloads workloads = Workloads.prepare(input, all ? PeerComparison.Plan.of(quick).syntheticRounds() : 1);
    // seconds between the server's readiness and the first load: what a fresh server still does then
    long settle = option(args, "--settle=", 0);
    ClientWarmUp.run(java.util.List.of(workloads.p4LineProtocol, workloads.p4RemoteWrite));
    Path dir = Files.createTempDirectory("chronix-cold-load");
    String options = System.getenv().getOrDefault("CHRONIX_JAVA_OPTS", "");
    String[] settings = java.util.List.of(args).stream().filter(a -> a.startsWith("--set="))
        .map(a -> a.substring("--set=".length())).toArray(String[]::new);
    System.out.printf(Locale.ROOT, "JVM options added: '%s'; settings: %s%n", options, String.join(" ", settings));
    try (ChronixPeer server = ChronixPeer.start(dir.resolve("data"), dir.resolve("server.log"), settings)) {
      Thread.sleep(settle * 1000);
      Map<String, Double> before = ProcessStats.cpuSecondsByThread(server.pid());
      report("P4, first load after start", workloads.p4LineProtocol, server, server.lineProtocolWrite(), threads);
      Map<String, Double> after = ProcessStats.cpuSecondsByThread(server.pid());
      after.forEach((thread, seconds) -> {
        double spent = seconds - before.getOrDefault(thread, 0.0);
        if (spent > 0) {
          System.out.printf(Locale.ROOT, "  %-24s %6.2f CPU s%n", thread, spent);
        }
      });
      if (all) {
        flush(server);
        report("10,000-series stream", workloads.synthetic, server, server.lineProtocolWrite(), threads);
        flush(server);
        report("P4, remote write", workloads.p4RemoteWrite, server, server.remoteWrite(), threads);
        flush(server);
      }
      report("P4 again, new series", workloads.p4Again, server, server.lineProtocolWrite(), threads);
      if (options.contains("NativeMemoryTracking")) { // where the resident memory went, by the JVM's account
        new ProcessBuilder("jcmd", Long.toString(server.pid()), "VM.native_memory", "summary").inheritIO().start()
            .waitFor();
      }
      server.stop(); // a clean stop, so a flight recording asked for in CHRONIX_JAVA_OPTS is written
    } finally {
      ImportBenchmark.deleteRecursively(dir);
    }
  }

  /** The number after {@code prefix} in the first argument that starts with it, or {@code otherwise}. */
  static long option(String[] args, String prefix, long otherwise) {
    return java.util.List.of(args).stream().filter(a -> a.startsWith(prefix))
        .mapToLong(a -> Long.parseLong(a.substring(prefix.length()))).findFirst().orElse(otherwise);
  }

  /** The flush after a load, timed: buffers written as records and committed. */
  private static void flush(ChronixPeer server) throws Exception {
    ProcessStats before = ProcessStats.of(server.pid());
    long start = System.nanoTime();
    server.flush();
    System.out.printf(Locale.ROOT, "  flush: %.2f s, %.2f CPU s%n", (System.nanoTime() - start) / 1e9,
        ProcessStats.of(server.pid()).since(before).cpuSeconds());
  }

  private static void report(String name, IngestLoad load, ChronixPeer server, java.net.URI target, int threads)
      throws Exception {
    ProcessStats before = ProcessStats.of(server.pid());
    ProcessStats clientBefore = ProcessStats.of(ProcessHandle.current().pid());
    Map<String, Double> threadsBefore = ProcessStats.cpuSecondsByThread(server.pid());
    long start = System.nanoTime();
    long startMillis = System.currentTimeMillis();
    load.send(target, threads);
    double seconds = (System.nanoTime() - start) / 1e9;
    ProcessStats spent = ProcessStats.of(server.pid()).since(before);
    double clientCpu = ProcessStats.of(ProcessHandle.current().pid()).cpuSeconds() - clientBefore.cpuSeconds();
    Map<String, Double> groups = ThreadGroups.byGroup(threadsBefore, ProcessStats.cpuSecondsByThread(server.pid()));
    // the wall-clock span, to find the load in a flight recording of the server
    System.out.printf(Locale.ROOT, "%s: %.2f s, %,.0f values/s, %.2f CPU s, peak RSS %.0f MB (client %.2f CPU s;"
        + " epoch ms %d-%d)%n", name, seconds, load.values() / seconds, spent.cpuSeconds(), spent.peakRssMb(),
        clientCpu, startMillis, System.currentTimeMillis());
    // threads that ended during the load (a finished merge) are missing here, but not above
    groups.forEach((group, cpu) -> System.out.printf(Locale.ROOT, "    %-60s %6.2f CPU s%n", group, cpu));
  }
}
