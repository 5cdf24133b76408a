package io.chronix.ingest.config;

import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.codec.Compressions;
import io.chronix.ingest.lifecycle.RetentionRules;
import io.chronix.ingest.lifecycle.RollupRetention;
import io.chronix.ingest.protocol.TcpLineListener;
import io.chronix.ingest.rollup.RollupTiers;
import io.chronix.ingest.security.Credentials;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Server settings: built-in defaults (conf/chronix.properties, packaged into the jar), then an
 * optional config file, then command-line options; later ones win. Every key is documented in
 * conf/chronix.properties.
 */
public final class ServerConfig {

  private final Properties properties;

  private ServerConfig(Properties properties) {
    this.properties = properties;
  }

  public static ServerConfig defaults() {
    Properties properties = new Properties();
    try (InputStream in = ServerConfig.class.getResourceAsStream("/chronix-defaults/chronix.properties")) {
      if (in == null) {
        throw new IllegalStateException("chronix-defaults/chronix.properties missing from the classpath");
      }
      properties.load(new java.io.InputStreamReader(in, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalStateException("cannot read built-in defaults", e);
    }
    return new ServerConfig(properties);
  }

  /** Defaults overlaid with the given file. */
  public ServerConfig withFile(Path file) throws IOException {
    Properties merged = copy();
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("config file " + file + " does not exist or is not a file");
    }
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      Properties fromFile = new Properties();
      fromFile.load(reader);
      for (String key : fromFile.stringPropertyNames()) {
        requireKnown(key, "config file " + file);
        merged.setProperty(key, fromFile.getProperty(key).trim());
      }
    }
    return new ServerConfig(merged);
  }

  public ServerConfig with(String key, String value) {
    requireKnown(key, "option");
    Properties merged = copy();
    merged.setProperty(key, value);
    return new ServerConfig(merged);
  }

  public ServerConfig with(Map<String, String> overrides) {
    ServerConfig config = this;
    for (Map.Entry<String, String> entry : overrides.entrySet()) {
      config = config.with(entry.getKey(), entry.getValue());
    }
    return config;
  }

  /** Every listener on a free port the system picks: for tests, benchmarks and embedding. */
  public ServerConfig withEphemeralPorts() {
    return with("http.port", "0").with("graphite.tcpPort", "0").with("graphite.udpPort", "0")
        .with("opentsdb.telnetPort", "0");
  }

  private Properties copy() {
    Properties copy = new Properties();
    copy.putAll(properties);
    return copy;
  }

  /** Families of keys that name users and tokens: {@code auth.user.<name>.roles} and the like. */
  private static final List<String> NAMED_KEY_PREFIXES = List.of("auth.user.", "auth.token.");

  private void requireKnown(String key, String where) {
    if (NAMED_KEY_PREFIXES.stream().anyMatch(key::startsWith)) {
      return; // checked as a whole by credentials()
    }
    if (!properties.containsKey(key)) {
      throw new IllegalArgumentException("unknown setting '" + key + "' in " + where
          + " (known: " + new java.util.TreeSet<>(properties.stringPropertyNames()) + ")");
    }
  }

  /** Every setting whose key starts with the prefix. */
  public Map<String, String> withPrefix(String prefix) {
    Map<String, String> found = new java.util.TreeMap<>();
    for (String key : properties.stringPropertyNames()) {
      if (key.startsWith(prefix)) {
        found.put(key, properties.getProperty(key).trim());
      }
    }
    return found;
  }

  public String get(String key) {
    String value = properties.getProperty(key);
    if (value == null) {
      throw new IllegalArgumentException("unknown setting '" + key + "'");
    }
    return value.trim();
  }

  public String host() {
    return get("http.host");
  }

  public int port() {
    return intValue("http.port", 0, 65535);
  }

  public Path dataDir() {
    return Path.of(get("data.dir"));
  }

  /** Empty: start the embedded Solr node. */
  public String solrUrl() {
    return get("solr.url");
  }

  public String collection() {
    return get("solr.collection");
  }

  /** Where the records go: the embedded node, one Solr over HTTP, or a SolrCloud cluster. */
  public enum SolrMode { EMBEDDED, URL, CLOUD }

  /**
   * @throws IllegalArgumentException when both solr.url and solr.zkHost are set
   */
  public SolrMode solrMode() {
    boolean url = !solrUrl().isEmpty();
    boolean cloud = !zkHost().isEmpty();
    if (url && cloud) {
      throw new IllegalArgumentException("solr.url (" + solrUrl() + ") and solr.zkHost (" + zkHost()
          + ") both name where records go: set one (solr.zkHost for SolrCloud, docs/scaling.md)");
    }
    return cloud ? SolrMode.CLOUD : url ? SolrMode.URL : SolrMode.EMBEDDED;
  }

  /** Empty unless the records live in SolrCloud, reached through this ZooKeeper address. */
  public String zkHost() {
    return get("solr.zkHost");
  }

  /** Shards of the collection when the server creates it in SolrCloud. */
  public int cloudShards() {
    return intValue("solr.cloud.shards", 1, 1024);
  }

  public int cloudReplicationFactor() {
    return intValue("solr.cloud.replicationFactor", 1, 64);
  }

  /** The router of a collection the server creates: compositeId, the only one that keeps series together. */
  public String cloudRouter() {
    String router = get("solr.cloud.router");
    if (!router.equals("compositeId")) {
      throw new IllegalArgumentException("solr.cloud.router must be compositeId, not '" + router + "': only it routes"
          + " by the records' id prefix, which keeps the records of a series on one shard");
    }
    return router;
  }

  /** Empty: this node's own base URL. */
  public String clusterAdvertiseUrl() {
    return get("cluster.advertiseUrl");
  }

  /** Empty, or the bearer token ingest nodes send with forwarded points. */
  public String clusterToken() {
    return get("cluster.token");
  }

  /** ZooKeeper session timeout of the cluster client (and of this node's registration). */
  public Duration zkSessionTimeout() {
    return duration("solr.cloud.zkSessionTimeout");
  }

  /** How long to wait for ZooKeeper at start and for a new collection's replicas. */
  public Duration cloudWaitTimeout() {
    return duration("solr.cloud.waitTimeout");
  }

  public int chunkMaxPoints() {
    return intValue("chunk.maxPoints", 1, Integer.MAX_VALUE);
  }

  public long chunkMaxBytes() {
    return longValue("chunk.maxBytes", 16, Long.MAX_VALUE);
  }

  public Duration chunkMaxAge() {
    return duration("chunk.maxAge");
  }

  /** How long a full chunk may wait for a pause in the ingest before it is written; 0: at once. */
  public Duration chunkMaxWriteDelay() {
    Duration delay = duration("chunk.maxWriteDelay");
    if (delay.isNegative() || delay.compareTo(Duration.ofDays(1)) > 0) {
      throw new IllegalArgumentException("chunk.maxWriteDelay must be between 0s and 1d, not '" + get("chunk.maxWriteDelay") + "'");
    }
    return delay;
  }

  public Duration flushInterval() {
    return duration("flush.interval");
  }

  public long maxRequestBytes() {
    return longValue("http.maxRequestBytes", 1024, Long.MAX_VALUE);
  }

  /**
   * Memory for write request bodies in flight (counted four times over for their copies); {@code
   * auto} is a quarter of the heap.
   */
  public long maxBodyBytesInFlight() {
    if (get("http.maxBodyBytesInFlight").equalsIgnoreCase("auto")) {
      long heap = Runtime.getRuntime().maxMemory();
      return heap == Long.MAX_VALUE ? 1L << 30 : heap / 4;
    }
    return longValue("http.maxBodyBytesInFlight", 1 << 20, Long.MAX_VALUE);
  }

  public int maxConcurrentQueries() {
    return intValue("http.maxConcurrentQueries", 1, 10_000);
  }

  /** Whether the start runs the write and query paths over scratch data before it is ready. */
  public boolean startupWarmUp() {
    return bool("startup.warmUp");
  }

  /** Whether every HTTP request must authenticate (docs/security.md). */
  public boolean authEnabled() {
    return bool("auth.enabled");
  }

  /** The users and tokens of the config; with auth on there must be at least one. */
  public Credentials credentials() {
    Map<String, String> named = withPrefix("auth.user.");
    named.putAll(withPrefix("auth.token."));
    Credentials credentials = Credentials.parse(named);
    if (authEnabled() && credentials.isEmpty()) {
      throw new IllegalArgumentException("auth.enabled=true, but no auth.user.<name> or auth.token.<name> is configured"
          + " (docs/security.md; make entries with: chronix passwd, chronix token)");
    }
    return credentials;
  }

  /** Whether anonymous requests may come from the network (auth off on a non-loopback address). */
  public boolean allowAnonymous() {
    return bool("auth.allowAnonymous");
  }

  /** With auth off: whether anonymous requests reach Solr's admin and update handlers. */
  public boolean openSolrAdminHandlers() {
    return bool("solr.openAdminHandlers");
  }

  /** The keystore for HTTPS, empty for plain HTTP. */
  public String tlsKeystore() {
    return get("http.tls.keystore");
  }

  public String tlsKeystorePassword() {
    return get("http.tls.keystorePassword");
  }

  public String tlsKeystoreType() {
    return get("http.tls.keystoreType");
  }

  public TcpLineListener.Limits tcpLimits() {
    return new TcpLineListener.Limits(intValue("tcp.maxConnections", 1, 100_000), duration("tcp.idleTimeout").toMillis());
  }

  /** Whether a host name or address is the loopback interface (what {@code localhost} is). */
  public static boolean isLoopback(String host) {
    try {
      return java.net.InetAddress.getByName(host).isLoopbackAddress();
    } catch (java.net.UnknownHostException e) {
      return false;
    }
  }

  private boolean bool(String key) {
    String text = get(key);
    if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(text);
    }
    throw new IllegalArgumentException(key + " must be true or false, not '" + text + "'");
  }

  public int maxConcurrentWrites() {
    return intValue("http.maxConcurrentWrites", 1, 10_000);
  }

  public Duration writeQueueTimeout() {
    return duration("http.writeQueueTimeout");
  }

  /** A listener's port, or -1 when the setting says {@code off}. */
  public int listenerPort(String key) {
    return get(key).equalsIgnoreCase("off") ? -1 : intValue(key, 0, 65535);
  }

  /** rollup.tiers (docs/lifecycle.md); empty: none. */
  public RollupTiers rollupTiers() {
    return RollupTiers.parse(get("rollup.tiers"));
  }

  /** rollup.retention (docs/lifecycle.md): per tier; a tier it does not name goes with its records. */
  public RollupRetention rollupRetention() {
    return RollupRetention.parse(get("rollup.retention"), rollupTiers());
  }

  /** retention.default and retention.rules (docs/lifecycle.md). */
  public RetentionRules retentionRules() {
    return RetentionRules.parse(get("retention.default"), get("retention.rules"));
  }

  public Duration retentionCheckInterval() {
    Duration interval = duration("retention.checkInterval");
    if (interval.isZero() || interval.isNegative()) {
      throw new IllegalArgumentException("retention.checkInterval must be positive, not " + get("retention.checkInterval"));
    }
    return interval;
  }

  /** Zero disables background compaction. */
  public Duration compactionInterval() {
    String text = get("compaction.interval");
    return text.equals("0") ? Duration.ZERO : duration("compaction.interval");
  }

  public int bufferMaxSeries() {
    return intValue("buffer.maxSeries", 1, Integer.MAX_VALUE);
  }

  public Duration bufferReleaseIdleAfter() {
    return duration("buffer.releaseIdleAfter");
  }

  public long bufferMaxBytes() {
    return longValue("buffer.maxBytes", 1024, Long.MAX_VALUE);
  }

  public io.chronix.ingest.wal.FsyncPolicy walFsync() {
    return io.chronix.ingest.wal.FsyncPolicy.parse(get("wal.fsync"));
  }

  public Duration walFsyncInterval() {
    return duration("wal.fsyncInterval");
  }

  public long walSegmentBytes() {
    return longValue("wal.segmentBytes", 4096, Long.MAX_VALUE);
  }

  public io.chronix.analysis.promql.engine.QueryLimits promqlLimits() {
    return new io.chronix.analysis.promql.engine.QueryLimits(promqlMaxSamples(), 11_000,
        duration("promql.timeout"), duration("promql.lookback"), Duration.ofMinutes(1));
  }

  /**
   * Samples a PromQL query may hold (Prometheus' --query.max-samples); {@code auto} is the store's
   * share for a query's decoded points ({@link io.chronix.core.budget.PointBudget#pointsForHeap}):
   * a sample takes 8 bytes at its step and 16 in the answer's arrays. Prometheus' 50,000,000 let a
   * range query of 1,000 series at 10,800 steps exhaust the launcher's heap (docs/benchmarks.md).
   */
  long promqlMaxSamples() {
    if (get("promql.maxSamples").equalsIgnoreCase("auto")) {
      return io.chronix.core.budget.PointBudget.pointsForThisHeap();
    }
    return longValue("promql.maxSamples", 1, Long.MAX_VALUE);
  }

  /**
   * Bytes of range answers the PromQL API keeps for the next request of the same query (0: none).
   * {@code auto} is a 32nd of the heap where this server sees every change to the stored points,
   * else none; a size where it does not is refused ({@link #unseenChanges}).
   */
  public long promqlCacheBytes() {
    String text = get("promql.cacheBytes");
    String unseen = unseenChanges();
    if (text.equalsIgnoreCase("auto")) {
      return unseen == null ? Runtime.getRuntime().maxMemory() / 32 : 0;
    }
    long bytes = longValue("promql.cacheBytes", 0, Long.MAX_VALUE);
    if (bytes > 0 && unseen != null) {
      throw new IllegalArgumentException("promql.cacheBytes=" + bytes + " would keep answers that go stale: " + unseen
          + "; set promql.cacheBytes to auto or 0");
    }
    return bytes;
  }

  /** How recent a step must not be for its answer to be kept: later ones may still get points. */
  public Duration promqlCacheHorizon() {
    return duration("promql.cacheHorizon");
  }

  /** Why this server would not see every change to the stored points, or null where it does. */
  private String unseenChanges() {
    if (solrMode() != SolrMode.EMBEDDED) {
      return "the records live in " + (solrMode() == SolrMode.CLOUD ? "SolrCloud" : "an external Solr")
          + ", where other servers change them and queries see buffered points only once written";
    }
    if (!semanticRules().isBlank()) {
      return "semantic.rules store other points than the buffers held";
    }
    if (longValue("ddc.thresholdNanos", 0, Long.MAX_VALUE) > 0) {
      return "ddc.thresholdNanos stores other timestamps than the buffers held";
    }
    return null;
  }

  public int promqlMaxSeries() {
    return intValue("promql.maxSeries", 1, Integer.MAX_VALUE);
  }

  /** Semantic compression rules; empty means none (lossless). */
  public String semanticRules() {
    return get("semantic.rules");
  }

  public ChunkCodec codec() {
    long threshold = longValue("ddc.thresholdNanos", 0, Long.MAX_VALUE);
    try {
      return new ChunkCodec(Compressions.byName(get("chunk.compression")), threshold);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("chunk.compression: " + e.getMessage(), e);
    }
  }

  private int intValue(String key, int min, int max) {
    long value = longValue(key, min, max);
    return (int) value;
  }

  private long longValue(String key, long min, long max) {
    String text = get(key);
    long value;
    try {
      value = Long.parseLong(text.replace("_", ""));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be a whole number, not '" + text + "'");
    }
    if (value < min || value > max) {
      throw new IllegalArgumentException(key + " must lie in [" + min + ", " + max + "], not " + value);
    }
    return value;
  }

  private Duration duration(String key) {
    return Durations.parse(key, get(key));
  }

}
