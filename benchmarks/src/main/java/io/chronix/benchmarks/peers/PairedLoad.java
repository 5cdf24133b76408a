package io.chronix.benchmarks.peers;

import io.chronix.benchmarks.ImportBenchmark;
import io.chronix.benchmarks.ProcessStats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Two builds of our server side by side, each started by the launcher of its own checkout, and
 * the comparison's loads (P4, the 10,000-series stream, remote write, P4 again) sent to both in
 * turns a few requests at a time: the same bodies, the same client threads, the order of the two
 * changing every slice. This machine's speed moves by a fifth and more over minutes, which buried
 * changes of a few percent in runs of one build after the other ({@link ColdLoad} by turns); here
 * both builds meet the same minutes. Each load's figures are the sum of its slices' times and each
 * server's request threads' CPU over the load, with the slices' own ratios (B's time over A's) as
 * a median and quartiles.
 *
 * <pre>benchmarks/run peers.PairedLoad &lt;checkout A&gt; &lt;checkout B&gt; [p4 dir] [--slice=N] [--threads=N]
 *     [--java-options-a=...] [--java-options-b=...]</pre>
 *
 * A checkout is a directory with the launcher and a built server jar (a git worktree of another
 * commit, built with {@code mvn -DskipTests package -pl chronix-ingest -am}); the same one twice
 * with different JVM options (which replace {@code CHRONIX_JAVA_OPTS} for that server) compares
 * options. Two servers of one build differed by up to 3 % in the stream's sum and by up to a tenth
 * in P4's shorter loads (docs/benchmarks.md, "Two builds by turns"): a change needs several runs,
 * A and B swapped between them.
 */
public final class PairedLoad {

  private PairedLoad() {}

  public static void main(String[] args) throws Exception {
    List<String> paths = java.util.Arrays.stream(args).filter(a -> !a.startsWith("--")).toList();
    if (paths.size() < 2) {
      throw new IllegalArgumentException("usage: PairedLoad <checkout A> <checkout B> [p4 dir] [--slice=N] [--threads=N]"
          + " [--java-options-a=...] [--java-options-b=...]");
    }
    Path checkoutA = Path.of(paths.get(0));
    Path checkoutB = Path.of(paths.get(1));
    for (Path checkout : List.of(checkoutA, checkoutB)) {
      if (!Files.isExecutable(checkout.resolve("chronix"))) {
        throw new IllegalArgumentException("no launcher ./chronix in " + checkout.toAbsolutePath());
      }
    }
    Path input = Path.of(paths.size() > 2 ? paths.get(2) : "../shared/data/p4");
    String optionsA = text(args, "--java-options-a=");
    String optionsB = text(args, "--java-options-b=");
    int slice = (int) ColdLoad.option(args, "--slice=", 6);
    int threads = (int) ColdLoad.option(args, "--threads=", PeerComparison.CLIENT_THREADS);
    Workloads workloads = Workloads.prepare(input, PeerComparison.Plan.of(false).syntheticRounds());
    ClientWarmUp.run(List.of(workloads.p4LineProtocol, workloads.p4RemoteWrite));
    Path dir = Files.createTempDirectory("chronix-paired-load");
    try (ChronixPeer a = ChronixPeer.start(checkoutA, optionsA, dir.resolve("a"), dir.resolve("a.log"));
        ChronixPeer b = ChronixPeer.start(checkoutB, optionsB, dir.resolve("b"), dir.resolve("b.log"))) {
      System.out.printf(Locale.ROOT, "A: %s%s (pid %d), B: %s%s (pid %d); %d bodies a slice, %d client threads%n",
          checkoutA.toAbsolutePath().normalize(), optionsA == null ? "" : " '" + optionsA + "'", a.pid(),
          checkoutB.toAbsolutePath().normalize(), optionsB == null ? "" : " '" + optionsB + "'", b.pid(), slice,
          threads);
      send(workloads.p4LineProtocol, a, b, slice, threads, false);
      send(workloads.synthetic, a, b, slice, threads, false);
      send(workloads.p4RemoteWrite, a, b, slice, threads, true);
      send(workloads.p4Again, a, b, slice, threads, false);
      a.stop();
      b.stop();
    } finally {
      ImportBenchmark.deleteRecursively(dir);
    }
  }

  /** One load to both servers in slices by turns, then each flushed; prints both and their ratios. */
  private static void send(IngestLoad load, ChronixPeer a, ChronixPeer b, int slice, int threads, boolean remoteWrite)
      throws Exception {
    Map<String, Double> cpuA = ProcessStats.cpuSecondsByThread(a.pid());
    Map<String, Double> cpuB = ProcessStats.cpuSecondsByThread(b.pid());
    PairedSlices paired = PairedSlices.send(load, slice, part -> part.send(target(a, remoteWrite), threads).nanos(),
        part -> part.send(target(b, remoteWrite), threads).nanos());
    double requestCpuA = requestCpu(cpuA, a);
    double requestCpuB = requestCpu(cpuB, b);
    a.flush();
    b.flush();
    System.out.printf(Locale.ROOT, "%s: A %,.0f values/s, request threads %.2f CPU s; B %,.0f values/s, %.2f CPU s;"
            + " B/A time %.3f, CPU %.3f; slices (%d) B/A time median %.3f, quartiles %.3f-%.3f%n",
        load.name(), load.values() * 1e9 / paired.nanosA(), requestCpuA, load.values() * 1e9 / paired.nanosB(),
        requestCpuB, paired.ratio(), requestCpuB / requestCpuA, paired.ratios().size(), paired.sliceRatio(0.5),
        paired.sliceRatio(0.25), paired.sliceRatio(0.75));
  }

  private static java.net.URI target(ChronixPeer server, boolean remoteWrite) {
    return remoteWrite ? server.remoteWrite() : server.lineProtocolWrite();
  }

  /** CPU seconds of the server's write request threads since {@code before}. */
  private static double requestCpu(Map<String, Double> before, ChronixPeer server) throws Exception {
    return ThreadGroups.byGroup(before, ProcessStats.cpuSecondsByThread(server.pid())).getOrDefault(ThreadGroups.INGEST,
        0.0);
  }

  /** The text after {@code prefix} in the first argument that starts with it, or null. */
  private static String text(String[] args, String prefix) {
    return java.util.Arrays.stream(args).filter(a -> a.startsWith(prefix)).map(a -> a.substring(prefix.length()))
        .findFirst().orElse(null);
  }

}
