package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.solr.core.CoreContainer;
import org.apache.solr.core.SolrCore;

/** A core on the project's configset in a directory of a test's own, without an update log. */
final class TestCore implements AutoCloseable {

  private static final Path CONFIGSET = Paths.get("..", "conf", "solr", "configsets", "chronix", "conf");

  private final CoreContainer cores;
  private final SolrCore core;

  private TestCore(CoreContainer cores, SolrCore core) {
    this.cores = cores;
    this.core = core;
  }

  static TestCore start(Path home) throws IOException {
    Path conf = Files.createDirectories(home.resolve("chronix").resolve("conf"));
    try (Stream<Path> files = Files.list(CONFIGSET)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Files.copy(file, conf.resolve(file.getFileName().toString()));
      }
    }
    Files.writeString(home.resolve("chronix").resolve("core.properties"), "name=chronix\nchronix.updateLog=false\n",
        StandardCharsets.UTF_8);
    Files.writeString(home.resolve("solr.xml"), "<solr/>", StandardCharsets.UTF_8);
    CoreContainer cores = new CoreContainer(home, new Properties());
    cores.load();
    SolrCore core = cores.getCore("chronix");
    assertNotNull(core, () -> "core did not load: " + cores.getCoreInitFailures());
    return new TestCore(cores, core);
  }

  SolrCore core() {
    return core;
  }

  CoreContainer cores() {
    return cores;
  }

  @Override
  public void close() {
    core.close();
    cores.shutdown();
  }
}
