package io.chronix.ingest.cli;

import io.chronix.ingest.config.ServerConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** The options that say which server (and with which settings): shared by the subcommands. */
final class ServerOptions {

  @Option(names = "--config", paramLabel = "<file>", description = "settings file (keys as in conf/chronix.properties)")
  Path configFile;

  @Option(names = "--http-port", paramLabel = "<port>",
      description = "HTTP port (default 8983); for commands that talk to a running server: its port")
  String httpPort;

  @Option(names = "--host", paramLabel = "<address>", description = "address to listen on / to reach (default 127.0.0.1)")
  String host;

  @Option(names = "--data-dir", paramLabel = "<dir>", description = "where records and the embedded Solr index live (default ./data)")
  String dataDir;

  @Option(names = "--solr-url", paramLabel = "<url>", description = "use this external Solr instead of the embedded node")
  String solrUrl;

  @Option(names = "--zk", paramLabel = "<host:port[/root]>",
      description = "use this SolrCloud cluster (its ZooKeeper) instead (docs/scaling.md)")
  String zk;

  @Option(names = "--set", paramLabel = "<key>=<value>", description = "any other setting of conf/chronix.properties")
  Map<String, String> settings = new LinkedHashMap<>();

  /** The settings: defaults, the file, then the options; checked early with the keys' names in the messages. */
  ServerConfig config() throws IOException {
    ServerConfig config = ServerConfig.defaults();
    if (configFile != null) {
      config = config.withFile(configFile);
    }
    Map<String, String> all = new LinkedHashMap<>();
    put(all, "http.port", httpPort);
    put(all, "http.host", host);
    put(all, "data.dir", dataDir);
    put(all, "solr.url", solrUrl);
    put(all, "solr.zkHost", zk);
    settings.forEach((key, value) -> all.put(key.trim(), value.trim()));
    ServerConfig result = config.with(all);
    result.port();
    result.chunkMaxAge();
    result.chunkMaxWriteDelay();
    result.flushInterval();
    result.codec();
    result.retentionRules();
    result.rollupRetention();
    result.retentionCheckInterval();
    return result;
  }

  private static void put(Map<String, String> settings, String key, String value) {
    if (value != null) {
      settings.put(key, value);
    }
  }
}
