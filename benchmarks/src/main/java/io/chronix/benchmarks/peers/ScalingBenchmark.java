package io.chronix.benchmarks.peers;

import static io.chronix.benchmarks.peers.ThreadGroups.CHUNKS;
import static io.chronix.benchmarks.peers.ThreadGroups.INGEST;
import static io.chronix.benchmarks.peers.ThreadGroups.JIT;
import static io.chronix.benchmarks.peers.ThreadGroups.LOAD_CLIENT;
import static io.chronix.benchmarks.peers.ThreadGroups.SOLR;
import static io.chronix.benchmarks.peers.ThreadGroups.SOLR_BACKGROUND;

import io.chronix.benchmarks.ImportBenchmark;
import io.chronix.benchmarks.MarkedSection;
import io.chronix.benchmarks.ProcessStats;
import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.config.ServerConfig;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.solr.cloud.MiniSolrCloudCluster;

/**
 * Ingest and query on SolrCloud with 1 and 2 ingest nodes and 1, 2 and 4 shards, all on this
 * machine: a MiniSolrCloudCluster of one Solr node per shard and the ingest nodes in this JVM,
 * P4 as line protocol from 2 client threads taking turns over the ingest nodes, then the query
 * mix through the first ingest node. CPU seconds per thread group of the JVM name each row's
 * bottleneck, and a model built from the measured per-value costs extrapolates to machines that
 * each run one ingest node and one Solr node. Writes docs/scaling.md's table.
 *
 * <pre>benchmarks/run Scaling [--quick] [p4 dir]</pre>
 */
public final class ScalingBenchmark {

  private static final int CLIENT_THREADS = 2;
  private static final String BEGIN = "<!-- scaling: written by benchmarks/run Scaling -->\n";
  private static final String END = "<!-- end of scaling -->\n";

  record Setup(int ingestNodes, int shards) {}

  record Row(Setup setup, long values, double ingestSeconds, double flushSeconds, Map<String, Double> cpu,
      double rawWholeMs, double raw1hMs, double maxWholeMs) {

    double valuesPerSecond() {
      return values / (ingestSeconds + flushSeconds);
    }

    /**
     * The busiest thread group of the store itself: the load generator shares the JVM, and the
     * JIT compiler's share shrinks with the length of a run while the others' do not.
     */
    String bottleneck() {
      return cpu.entrySet().stream().filter(e -> !e.getKey().equals(LOAD_CLIENT) && !e.getKey().equals(JIT))
          .max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse("-");
    }

    double cpuMicrosPerValue(String... groups) {
      double seconds = 0;
      for (String group : groups) {
        seconds += cpu.getOrDefault(group, 0.0);
      }
      return seconds * 1e6 / values;
    }
  }

  private ScalingBenchmark() {}

  public static void main(String[] args) throws Exception {
    boolean quick = List.of(args).contains("--quick");
    Path input = Path.of(List.of(args).stream().filter(a -> !a.startsWith("--")).findFirst().orElse("../shared/data/p4"));
    Workloads workloads = Workloads.prepare(input, 1);
    QueryMix mix = QueryMix.plan(workloads.series, quick ? 4 : 10, 42);
    List<Setup> setups = quick ? List.of(new Setup(1, 1), new Setup(2, 2))
        : List.of(new Setup(1, 1), new Setup(1, 2), new Setup(1, 4), new Setup(2, 1), new Setup(2, 2), new Setup(2, 4));
    // one JVM runs every setup: the first would pay for compiling everything, so a round goes first unmeasured
    run(new Setup(1, 1), workloads, mix, true);
    List<Row> rows = new ArrayList<>();
    for (Setup setup : setups) {
      Row row = run(setup, workloads, mix, quick);
      System.out.printf(Locale.ROOT, "%d ingest node(s), %d shard(s): %,.0f values/s (ack %.2f s + flush %.2f s), "
          + "raw whole %.2f ms, max whole %.2f ms; bottleneck: %s%n", setup.ingestNodes(), setup.shards(),
          row.valuesPerSecond(), row.ingestSeconds(), row.flushSeconds(), row.rawWholeMs(), row.maxWholeMs(),
          row.bottleneck());
      rows.add(row);
    }
    if (!mix.disagreements().isEmpty()) {
      throw new IllegalStateException("answers differ between setups: " + mix.disagreements());
    }
    String markdown = markdown(rows, workloads, mix.perGroup(), quick);
    System.out.println(markdown);
    if (!quick) {
      MarkedSection.write(Path.of("docs/scaling.md"), BEGIN, END, markdown, "## Measured\n\n");
    }
  }

  private static Row run(Setup setup, Workloads workloads, QueryMix mix, boolean quick) throws Exception {
    Path dir = Files.createTempDirectory("chronix-scaling");
    MiniSolrCloudCluster cluster = new MiniSolrCloudCluster.Builder(setup.shards(), dir.resolve("cloud"))
        .withTraceIdGenerationDisabled().build();
    List<ChronixServer> nodes = new ArrayList<>();
    try {
      for (int n = 0; n < setup.ingestNodes(); n++) {
        nodes.add(new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
            .with("data.dir", dir.resolve("ingest-" + n).toString())
            .with("solr.zkHost", cluster.getZkServer().getZkAddress())
            .with("solr.cloud.shards", Integer.toString(setup.shards()))
            .with("solr.cloud.replicationFactor", "1")).start());
      }
      for (ChronixServer node : nodes) {
        while (node.ingestNodes().size() != nodes.size()) {
          Thread.sleep(50);
        }
      }
      List<URI> writes = nodes.stream().map(node -> URI.create(node.baseUrl() + "/write")).toList();
      long pid = ProcessHandle.current().pid();
      Map<String, Double> before = ProcessStats.cpuSecondsByThread(pid);
      IngestLoad.Outcome outcome = workloads.p4LineProtocol.send(writes, CLIENT_THREADS);
      long flushStart = System.nanoTime();
      for (ChronixServer node : nodes) {
        Http.post(URI.create(node.baseUrl() + "/flush"), "");
      }
      double flushSeconds = (System.nanoTime() - flushStart) / 1e9;
      Map<String, Double> cpu = ThreadGroups.byGroup(before, ProcessStats.cpuSecondsByThread(pid));
      ClusterQueries queries = new ClusterQueries(URI.create(nodes.get(0).baseUrl()));
      QueryMix.Latencies latencies = mix.run(queries, 1, quick ? 1 : 3);
      return new Row(setup, workloads.p4LineProtocol.values(), outcome.nanos() / 1e9, flushSeconds, cpu,
          QueryMix.medianMillis(latencies.nanos().get("raw whole")), QueryMix.medianMillis(latencies.nanos().get("raw 1 h")),
          QueryMix.medianMillis(latencies.nanos().get("max whole")));
    } finally {
      for (ChronixServer node : nodes) {
        node.close();
      }
      cluster.shutdown();
      ImportBenchmark.deleteRecursively(dir);
    }
  }

  static String markdown(List<Row> rows, Workloads workloads, int seriesPerRange, boolean quick) {
    StringBuilder out = new StringBuilder();
    out.append("```\nbenchmarks/run Scaling").append(quick ? " --quick" : "").append("\n```\n\n");
    out.append(String.format(Locale.ROOT, "Run of %s on this machine (2 cores): %,d values of %d P4 series as line "
        + "protocol, %d client threads taking turns over the ingest nodes, then /flush on each; the query mix "
        + "(%d series per range, medians) through the first ingest node's /solr/chronix/query. Everything runs "
        + "on the same 2 cores (one Solr node per shard, replication factor 1, the ingest nodes and the client in "
        + "one JVM, warmed up by an unmeasured first round), so the rows show what each layout costs, not what more "
        + "machines would give.%n%n",
        LocalDate.now(ZoneOffset.UTC), workloads.p4LineProtocol.values(), workloads.series.size(), CLIENT_THREADS,
        seriesPerRange));
    out.append("| ingest nodes | shards | values/s (to flushed) | ack s | flush s | raw whole p50 ms | raw 1 h p50 ms "
        + "| max whole p50 ms | ingest CPU us/value | Solr CPU us/value | bottleneck |\n");
    out.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (Row row : rows) {
      out.append(String.format(Locale.ROOT, "| %d | %d | %,.0f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %s |%n",
          row.setup().ingestNodes(), row.setup().shards(), row.valuesPerSecond(), row.ingestSeconds(),
          row.flushSeconds(), row.rawWholeMs(), row.raw1hMs(), row.maxWholeMs(), row.cpuMicrosPerValue(INGEST, CHUNKS),
          row.cpuMicrosPerValue(SOLR, SOLR_BACKGROUND), row.bottleneck()));
    }
    out.append("\nCPU seconds by thread group per row: ");
    for (Row row : rows) {
      out.append(String.format(Locale.ROOT, "%d/%d: %s; ", row.setup().ingestNodes(), row.setup().shards(),
          rounded(row.cpu())));
    }
    out.append("\n\n").append(model(rows));
    return out.toString();
  }

  /**
   * A model, not a measurement: machines of 2 cores each running one ingest node and one Solr node,
   * the load spread evenly; a value costs the measured ingest and Solr CPU, plus, for the share
   * (m-1)/m of values that arrive at a non-owner, the extra ingest CPU measured with two ingest
   * nodes over one (parsing and forwarding twice). Queries of one series touch one shard, so
   * their latency stays that of one node.
   */
  static String model(List<Row> rows) {
    List<Row> one = rows.stream().filter(r -> r.setup().ingestNodes() == 1).toList();
    if (one.isEmpty()) {
      return "";
    }
    double ingest = one.stream().mapToDouble(r -> r.cpuMicrosPerValue(INGEST, CHUNKS)).average().orElse(0);
    double solr = one.stream().mapToDouble(r -> r.cpuMicrosPerValue(SOLR, SOLR_BACKGROUND)).average().orElse(0);
    // with two ingest nodes half the values are forwarded once: per forwarded value, twice the
    // difference to one node with the same shards, averaged over the shard counts
    double difference = 0;
    int pairs = 0;
    for (Row single : one) {
      for (Row two : rows) {
        if (two.setup().ingestNodes() == 2 && two.setup().shards() == single.setup().shards()) {
          difference += two.cpuMicrosPerValue(INGEST, CHUNKS) - single.cpuMicrosPerValue(INGEST, CHUNKS);
          pairs++;
        }
      }
    }
    double forward = pairs == 0 ? 0 : Math.max(0, 2 * difference / pairs);
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "Model (not measured; from the rows above): a value costs %.2f us of ingest "
        + "CPU and %.2f us of Solr CPU (means of the one-ingest-node rows), a forwarded value %.2f us more (two "
        + "ingest nodes against one, same shards). With m machines of 2 cores, each running one ingest node and one "
        + "Solr node and taking 1/m of the load, ingest would reach about m x 2 / (ingest + Solr + forward x "
        + "(m-1)/m) values/s, CPU-bound, leaving out the JIT's warm-up, the network between machines and "
        + "replication (a replication factor r adds r-1 times the Solr cost):%n%n", ingest, solr, forward));
    out.append("| machines | values/s (model) |\n|---|---|\n");
    for (int m : new int[] {1, 2, 4, 8, 16}) {
      double perValue = ingest + solr + forward * (m - 1) / m;
      out.append(String.format(Locale.ROOT, "| %d | %,.0f |%n", m, m * 2e6 / perValue));
    }
    double measured = one.stream().mapToDouble(Row::valuesPerSecond).average().orElse(0);
    out.append(String.format(Locale.ROOT, "%nAn upper bound: on this machine the one-ingest-node rows reached %,.0f "
        + "values/s on average, %.0f %% of the model's one machine; the rest went to the JIT compiler, the load "
        + "client on the same cores, and the pauses between a request's acknowledgement and the next.%n", measured,
        100 * measured / (2e6 / (ingest + solr))));
    return out.toString();
  }

  private static Map<String, String> rounded(Map<String, Double> cpu) {
    Map<String, String> out = new LinkedHashMap<>();
    cpu.forEach((group, seconds) -> out.put(group, String.format(Locale.ROOT, "%.1f", seconds)));
    return out;
  }

  /** The query side of a cluster, reached through an ingest node's /solr. */
  private static final class ClusterQueries implements ChronixQueryServer {

    private final ChronixQueries queries;
    private final URI base;

    ClusterQueries(URI base) {
      this.base = base;
      this.queries = new ChronixQueries(base);
    }

    @Override
    public String name() {
      return "Chronix on SolrCloud";
    }

    @Override
    public long pid() {
      return ProcessHandle.current().pid();
    }

    @Override
    public Path dataDir() {
      return null;
    }

    @Override
    public URI lineProtocolWrite() {
      return base.resolve("/write");
    }

    @Override
    public URI remoteWrite() {
      return base.resolve("/api/v1/write");
    }

    @Override
    public void flush() throws Exception {
      Http.post(base.resolve("/flush"), "");
    }

    @Override
    public void stop() {}

    @Override
    public void close() {}

    @Override
    public ChronixQueries queries() {
      return queries;
    }
  }
}
