package io.chronix.ingest.solr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Solr's per-request trace ids and request ids, and its v2 API, are off in the embedded node unless
 * the operator asks for them.
 */
class EmbeddedSolrPropertiesTest {

  private static final List<String> PROPERTIES =
      List.of(EmbeddedSolrNode.TRACE_IDS_PROPERTY, EmbeddedSolrNode.NO_REQUEST_IDS_PROPERTY,
          EmbeddedSolrNode.NO_V2_API_PROPERTY);

  @TempDir Path dataDir;
  private final Map<String, String> before = new HashMap<>();

  @BeforeEach
  void remember() {
    PROPERTIES.forEach(property -> before.put(property, System.getProperty(property)));
  }

  @AfterEach
  void restore() {
    before.forEach((property, value) -> {
      if (value == null) {
        System.clearProperty(property);
      } else {
        System.setProperty(property, value);
      }
    });
  }

  @Test
  void offByDefault() throws Exception {
    PROPERTIES.forEach(System::clearProperty);
    new EmbeddedSolrNode(dataDir, "chronix", false).awaitKeys(); // its thread done before the directory goes
    assertEquals("false", System.getProperty(EmbeddedSolrNode.TRACE_IDS_PROPERTY));
    assertEquals("true", System.getProperty(EmbeddedSolrNode.NO_REQUEST_IDS_PROPERTY));
    assertEquals("true", System.getProperty(EmbeddedSolrNode.NO_V2_API_PROPERTY));
  }

  @Test
  void anOperatorsChoiceIsKept() throws Exception {
    System.setProperty(EmbeddedSolrNode.TRACE_IDS_PROPERTY, "true");
    System.setProperty(EmbeddedSolrNode.NO_REQUEST_IDS_PROPERTY, "false");
    System.setProperty(EmbeddedSolrNode.NO_V2_API_PROPERTY, "false");
    new EmbeddedSolrNode(dataDir, "chronix", false).awaitKeys(); // its thread done before the directory goes
    assertEquals("true", System.getProperty(EmbeddedSolrNode.TRACE_IDS_PROPERTY));
    assertEquals("false", System.getProperty(EmbeddedSolrNode.NO_REQUEST_IDS_PROPERTY));
    assertEquals("false", System.getProperty(EmbeddedSolrNode.NO_V2_API_PROPERTY));
  }
}
