package io.chronix.benchmarks.peers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronix.benchmarks.PeerPackages;
import io.chronix.benchmarks.VictoriaMetricsProcess;
import io.chronix.core.series.Points;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * InfluxDB 1.x (Debian package, installed by {@code benchmarks/peers/influxdb.sh}) as a peer, with
 * a configuration of our own: everything it stores (meta, TSM data, WAL) under the given data
 * directory, both listeners on free loopback ports, its self-monitoring store off (it would write
 * its own metrics into the measured directory), usage reporting off. Durability as shipped: the
 * WAL is fsynced before a write is acknowledged. Queries are InfluxQL over {@code /query}.
 */
final class InfluxDbPeer extends LocalPeer {

  static final String DATABASE = "bench";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Process process;
  private final URI base;
  private final Path log;
  /** Its configuration, written for this process and deleted with it. */
  private final Path config;

  private InfluxDbPeer(Process process, URI base, Path dataDir, Path log, Path config) {
    super("InfluxDB", process.pid(), dataDir);
    this.process = process;
    this.base = base;
    this.log = log;
    this.config = config;
  }

  /** Installs the package when missing and returns the influxd path. */
  static String install() throws Exception {
    return PeerPackages.install("influxdb.sh");
  }

  static String version(String binary) throws Exception {
    return String.join(" ", VictoriaMetricsProcess.run(List.of(binary, "version"))).trim();
  }

  /** Starts influxd with a config file beside the log (outside the data directory). */
  static InfluxDbPeer start(String binary, Path dataDir, Path log) throws Exception {
    int httpPort = freePort();
    int rpcPort = freePort();
    Path config = log.resolveSibling(log.getFileName() + ".conf");
    Files.writeString(config, String.join("\n",
        "reporting-disabled = true",
        "bind-address = \"127.0.0.1:" + rpcPort + "\"",
        "[meta]", "  dir = \"" + dataDir.resolve("meta") + "\"",
        "[data]", "  dir = \"" + dataDir.resolve("data") + "\"", "  wal-dir = \"" + dataDir.resolve("wal") + "\"",
        "  query-log-enabled = false",
        "[http]", "  bind-address = \"127.0.0.1:" + httpPort + "\"", "  log-enabled = false",
        "  max-body-size = 0",
        "[monitor]", "  store-enabled = false",
        "[continuous_queries]", "  enabled = false", ""));
    Process process = new ProcessBuilder(binary, "-config", config.toString()).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    InfluxDbPeer peer = new InfluxDbPeer(process, URI.create("http://127.0.0.1:" + httpPort), dataDir, log, config);
    try {
      peer.awaitPing();
      Http.post(peer.base.resolve("/query"), "q=" + Http.encode("CREATE DATABASE " + DATABASE));
    } catch (Exception | Error e) {
      peer.close();
      throw e;
    }
    return peer;
  }

  private void awaitPing() throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("influxd exited with " + process.exitValue() + " at start; log: " + log);
      }
      try {
        Http.get(base.resolve("/ping"));
        return;
      } catch (IOException notYetListening) {
        Thread.sleep(100);
      }
    }
    throw new IllegalStateException("influxd did not answer /ping within 60 s; log: " + log);
  }

  @Override
  public URI lineProtocolWrite() {
    return base.resolve("/write?db=" + DATABASE);
  }

  @Override
  public URI remoteWrite() {
    return base.resolve("/api/v1/prom/write?db=" + DATABASE);
  }

  /** Acknowledged points are in its fsynced WAL and queryable at once: nothing to flush. */
  @Override
  public void flush() {}

  @Override
  public void stop() throws Exception {
    process.destroy();
    if (!process.waitFor(2, TimeUnit.MINUTES)) {
      throw new IllegalStateException("influxd did not stop within 2 minutes; log: " + log);
    }
  }

  @Override
  public void close() throws Exception {
    if (process.isAlive()) {
      process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
    Files.deleteIfExists(config);
  }

  @Override
  public void ping() throws Exception {
    Http.get(base.resolve("/ping"));
  }

  @Override
  public Points raw(SeriesRef series, long from, long to) throws Exception {
    Points points = new Points();
    for (JsonNode row : query("SELECT \"value\" FROM " + where(series, from, to))) {
      points.add(row.get(0).asLong() * 1_000_000L, row.get(1).asDouble());
    }
    return points;
  }

  @Override
  public double max(SeriesRef series, long from, long to) throws Exception {
    JsonNode rows = query("SELECT max(\"value\") FROM " + where(series, from, to));
    return rows.isEmpty() ? Double.NaN : rows.get(0).get(1).asDouble();
  }

  private JsonNode query(String influxQl) throws Exception {
    JsonNode answer = JSON.readTree(Http.get(base.resolve("/query?db=" + DATABASE + "&epoch=ms&q="
        + Http.encode(influxQl))));
    JsonNode result = answer.at("/results/0");
    if (result.has("error")) {
      throw new IllegalStateException("InfluxDB: " + result.get("error").asText() + " for " + influxQl);
    }
    JsonNode values = result.at("/series/0/values");
    return values.isMissingNode() ? JSON.createArrayNode() : values;
  }

  private static String where(SeriesRef series, long from, long to) {
    StringBuilder out = new StringBuilder(identifier(series.metric())).append(" WHERE ");
    for (Map.Entry<String, String> tag : series.tags().entrySet()) {
      out.append(identifier(tag.getKey())).append("='").append(tag.getValue().replace("\\", "\\\\").replace("'", "\\'"))
          .append("' AND ");
    }
    return out.append("time >= ").append(from).append("ms AND time <= ").append(to).append("ms").toString();
  }

  private static String identifier(String name) {
    return '"' + name.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
