package io.chronix.benchmarks.peers;

import io.chronix.benchmarks.ImportBenchmark;
import io.chronix.benchmarks.ProcessStats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How the comparison's query mix warms up on our server alone: P4 loaded, flushed, the server
 * stopped and started again on its data (as the comparison does), then the mix round after round,
 * each round's medians by group and the server's CPU by thread group (the JIT's compiler threads
 * apart from the request threads). JVM options from {@code CHRONIX_JAVA_OPTS}, as the launcher
 * takes them; settings after {@code --set} go to the server ({@code key=value}).
 *
 * <pre>benchmarks/run peers.QueryWarmth [p4 dir] [--rounds N] [--set key=value ...]</pre>
 */
public final class QueryWarmth {

  private QueryWarmth() {}

  public static void main(String[] args) throws Exception {
    List<String> list = List.of(args);
    int rounds = list.contains("--rounds") ? Integer.parseInt(list.get(list.indexOf("--rounds") + 1)) : 8;
    String[] settings = list.contains("--set")
        ? list.subList(list.indexOf("--set") + 1, list.size()).toArray(String[]::new) : new String[0];
    Path input = Path.of(list.stream().filter(a -> !a.startsWith("--") && !a.contains("=") && !a.matches("\\d+"))
        .findFirst().orElse("../shared/data/p4"));
    Workloads workloads = Workloads.prepare(input, 1);
    QueryMix mix = QueryMix.plan(workloads.series, PeerComparison.Plan.of(false).seriesPerRange(), 42);
    Path dir = Files.createTempDirectory("chronix-query-warmth");
    System.out.printf(Locale.ROOT, "JVM options added: '%s'; settings %s%n",
        System.getenv().getOrDefault("CHRONIX_JAVA_OPTS", ""), List.of(settings));
    try {
      try (ChronixPeer server = ChronixPeer.start(dir.resolve("data"), dir.resolve("server.log"), settings)) {
        workloads.p4LineProtocol.send(server.lineProtocolWrite(), 2);
        server.flush();
        server.stop();
      }
      try (ChronixPeer server = ChronixPeer.start(dir.resolve("data"), dir.resolve("server.log"), settings)) {
        for (int round = 1; round <= rounds; round++) {
          Map<String, Double> threadsBefore = ProcessStats.cpuSecondsByThread(server.pid());
          long start = System.nanoTime();
          QueryMix.Latencies latencies = mix.run(server, 0, 1);
          double seconds = (System.nanoTime() - start) / 1e9;
          StringBuilder medians = new StringBuilder();
          latencies.nanos().forEach((group, nanos) ->
              medians.append(String.format(Locale.ROOT, " %s %.2f", group, QueryMix.percentile(nanos, 0.5))));
          System.out.printf(Locale.ROOT, "round %d: %.2f s;%s%n", round, seconds, medians);
          ThreadGroups.byGroup(threadsBefore, ProcessStats.cpuSecondsByThread(server.pid())).forEach((group, cpu) ->
              System.out.printf(Locale.ROOT, "    %-60s %6.2f CPU s%n", group, cpu));
        }
        // the server's CPU a query, group by group, now that the path is warm
        for (Map.Entry<String, List<QueryMix.Query>> group : mix.byGroup().entrySet()) {
          ProcessStats cpuBefore = ProcessStats.of(server.pid());
          long start = System.nanoTime();
          int asked = 0;
          long points = 0;
          for (int repeat = 0; repeat < 5; repeat++) {
            for (QueryMix.Query query : group.getValue()) {
              Object answer = QueryMix.ask(server, query);
              points += answer instanceof Integer count ? count : 0;
              asked++;
            }
          }
          double wallMs = (System.nanoTime() - start) / 1e6 / asked;
          double cpuMs = ProcessStats.of(server.pid()).since(cpuBefore).cpuSeconds() * 1000.0 / asked;
          System.out.printf(Locale.ROOT, "%-14s wall %.2f ms, server CPU %.2f ms a query%s%n", group.getKey(), wallMs,
              cpuMs, points > 0 ? String.format(Locale.ROOT, ", %,d points a query", points / asked) : "");
        }
        if (!mix.disagreements().isEmpty()) {
          throw new IllegalStateException("answers changed between rounds: " + mix.disagreements());
        }
        server.stop();
      }
    } finally {
      ImportBenchmark.deleteRecursively(dir);
    }
  }
}
