package io.chronix.ingest.solr;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/**
 * The embedded node's Solr home, {@code <data dir>/solr}: its solr.xml (the server's, or one the
 * operator wrote, which is kept) and its cores, each with the {@code chronix} configset packaged
 * in the server jar and a core.properties. Files already there are not overwritten.
 */
final class EmbeddedSolrHome {

  /**
   * The solr.xml of a fresh home. Its solrcloud section only names the node's key pair ({@link
   * NodeKeyPair}); without a ZooKeeper host the node stays a standalone one.
   */
  private static final String SOLR_XML = """
      <?xml version="1.0" encoding="UTF-8"?>
      <solr>
        <str name="allowPaths">${solr.allowPaths:*}</str>
        <solrcloud>
          <str name="host">127.0.0.1</str>
          <int name="hostPort">0</int>
          <str name="hostContext">solr</str>
          <str name="pkiHandlerPrivateKeyPath">${chronix.pkiPrivateKey:}</str>
          <str name="pkiHandlerPublicKeyPath">${chronix.pkiPublicKey:}</str>
        </solrcloud>
      </solr>
      """;
  /** What earlier releases wrote: replaced by {@link #SOLR_XML}, unlike a solr.xml of the operator's. */
  private static final List<String> EARLIER_SOLR_XML = List.of(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<solr/>\n",
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<solr>\n  <str name=\"allowPaths\">${solr.allowPaths:*}</str>\n</solr>\n");
  /** Read by the configset's solrconfig.xml: whether Solr keeps its own transaction log. */
  static final String UPDATE_LOG_PROPERTY = "chronix.updateLog";

  private final Path home;

  EmbeddedSolrHome(Path dataDir) {
    this.home = dataDir.resolve("solr").toAbsolutePath();
  }

  Path path() {
    return home;
  }

  /** Writes the server's solr.xml unless the operator wrote one; whether the server's is in use. */
  boolean prepareSolrXml() throws IOException {
    Files.createDirectories(home);
    String text = solrXmlText();
    if (!isServers(text)) {
      return false;
    }
    if (!SOLR_XML.equals(text)) {
      // backups go where the admin names (POST /admin/backup, admin role): Solr checks paths against allowPaths
      Files.writeString(home.resolve("solr.xml"), SOLR_XML, StandardCharsets.UTF_8);
    }
    return true;
  }

  /** Whether the home's solr.xml is the server's (or none yet, or an earlier release's). */
  boolean ownSolrXml() throws IOException {
    return isServers(solrXmlText());
  }

  /** The solr.xml's text, or null where there is none yet. */
  private String solrXmlText() throws IOException {
    Path solrXml = home.resolve("solr.xml");
    return Files.exists(solrXml) ? Files.readString(solrXml, StandardCharsets.UTF_8) : null;
  }

  private static boolean isServers(String text) {
    return text == null || text.equals(SOLR_XML) || EARLIER_SOLR_XML.contains(text);
  }

  /** A core of that name: the configset's missing files, and its core.properties. */
  void prepareCore(String name) throws IOException {
    Path core = home.resolve(name);
    PackagedConfigSet.copyMissingTo(core.resolve("conf"));
    Path coreProperties = core.resolve("core.properties");
    Properties properties = Files.exists(coreProperties) ? properties(coreProperties) : new Properties();
    boolean changed = properties.putIfAbsent("name", name) == null;
    // the server's write-ahead log is the durability; Solr's own log would be a second copy
    changed |= properties.putIfAbsent(UPDATE_LOG_PROPERTY, "false") == null;
    if (changed) {
      try (java.io.Writer out = Files.newBufferedWriter(coreProperties, StandardCharsets.UTF_8)) {
        properties.store(out, "written by the Chronix server");
      }
    }
  }

  /** A core.properties file's properties. */
  static Properties properties(Path coreProperties) throws IOException {
    Properties properties = new Properties();
    try (InputStream in = Files.newInputStream(coreProperties)) {
      properties.load(in);
    }
    return properties;
  }
}
