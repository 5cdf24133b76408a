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
 * the same load again as new series into the now warm server.
 *
 * <pre>benchmarks/run peers.ColdLoad [p4 dir]</pre>
 */
public final class ColdLoad {

  private ColdLoad() {}

  public static void main(String[] args) throws Exception {
    Workloads workloads = Workloads.prepare(Path.of(args.length > 0 ? args[0] : "../shared/data/p4"), 1);
    Path dir = Files.createTempDirectory("chronix-cold-load");
    String options = System.getenv().getOrDefault("CHRONIX_JAVA_OPTS", "");
    System.out.printf(Locale.ROOT, "JVM options added: '%s'%n", options);
    try (ChronixPeer server = ChronixPeer.start(dir.resolve("data"), dir.resolve("server.log"))) {
      Map<String, Double> before = ProcessStats.cpuSecondsByThread(server.pid());
      report("P4, first load after start", workloads.p4LineProtocol, server);
      Map<String, Double> after = ProcessStats.cpuSecondsByThread(server.pid());
      after.forEach((thread, seconds) -> {
        double spent = seconds - before.getOrDefault(thread, 0.0);
        if (spent > 0) {
          System.out.printf(Locale.ROOT, "  %-24s %6.2f CPU s%n", thread, spent);
        }
      });
      report("P4 again, new series", workloads.p4Again, server);
    } finally {
      ImportBenchmark.deleteRecursively(dir);
    }
  }

  private static void report(String name, IngestLoad load, ChronixPeer server) throws Exception {
    ProcessStats before = ProcessStats.of(server.pid());
    long start = System.nanoTime();
    load.send(server.lineProtocolWrite(), 2);
    double seconds = (System.nanoTime() - start) / 1e9;
    ProcessStats spent = ProcessStats.of(server.pid()).since(before);
    System.out.printf(Locale.ROOT, "%s: %.2f s, %,.0f values/s, %.2f CPU s, peak RSS %.0f MB%n",
        name, seconds, load.values() / seconds, spent.cpuSeconds(), spent.peakRssMb());
  }
}
