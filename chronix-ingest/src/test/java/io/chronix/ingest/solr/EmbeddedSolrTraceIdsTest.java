package io.chronix.ingest.solr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Solr's per-request trace ids are off in the embedded node unless the operator asks for them. */
class EmbeddedSolrTraceIdsTest {

  @TempDir Path dataDir;
  private String before;

  @BeforeEach
  void remember() {
    before = System.getProperty(EmbeddedSolrNode.TRACE_IDS_PROPERTY);
  }

  @AfterEach
  void restore() {
    if (before == null) {
      System.clearProperty(EmbeddedSolrNode.TRACE_IDS_PROPERTY);
    } else {
      System.setProperty(EmbeddedSolrNode.TRACE_IDS_PROPERTY, before);
    }
  }

  @Test
  void offByDefault() throws Exception {
    System.clearProperty(EmbeddedSolrNode.TRACE_IDS_PROPERTY);
    new EmbeddedSolrNode(dataDir, "chronix", false);
    assertEquals("false", System.getProperty(EmbeddedSolrNode.TRACE_IDS_PROPERTY));
  }

  @Test
  void anOperatorsChoiceIsKept() throws Exception {
    System.setProperty(EmbeddedSolrNode.TRACE_IDS_PROPERTY, "true");
    new EmbeddedSolrNode(dataDir, "chronix", false);
    assertEquals("true", System.getProperty(EmbeddedSolrNode.TRACE_IDS_PROPERTY));
  }
}
