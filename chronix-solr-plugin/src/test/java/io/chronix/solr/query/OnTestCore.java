package io.chronix.solr.query;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.solr.core.SolrCore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** A test class on one core of the project's configset ({@link TestCore}), started before its tests, closed after them. */
abstract class OnTestCore {

  @TempDir static Path home;
  private static TestCore testCore;
  /** The class's core. */
  static SolrCore core;

  @BeforeAll
  static void startCore() throws IOException {
    testCore = TestCore.start(home);
    core = testCore.core();
  }

  @AfterAll
  static void stopCore() {
    if (testCore != null) {
      testCore.close();
      testCore = null;
      core = null;
    }
  }
}
