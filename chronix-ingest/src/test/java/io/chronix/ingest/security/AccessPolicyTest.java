package io.chronix.ingest.security;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.ingest.security.AccessPolicy.Need;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Under /solr only the collection's two search handlers are read-only; the rest is Solr's admin surface. */
class AccessPolicyTest {

  @Test
  void theCollectionsSearchHandlersAreReadOnly() {
    AccessPolicy policy = new AccessPolicy("chronix");
    Map<String, Need> needs = Map.of("/solr/chronix/query", Need.READ, "/solr/chronix/select", Need.READ,
        "/solr/chronix/update", Need.SOLR_ADMIN, "/solr/chronix/queryx", Need.SOLR_ADMIN,
        "/solr/other/query", Need.SOLR_ADMIN, "/solr/chronix_rollups/select", Need.SOLR_ADMIN,
        "/solr", Need.SOLR_ADMIN, "/solr/admin/cores", Need.SOLR_ADMIN, "/ping", Need.NOBODY,
        "/api/v1/query", Need.READ);
    needs.forEach((path, need) -> assertEquals(need, policy.need(path), path));
    assertEquals(Need.READ, new AccessPolicy("metrics").need("/solr/metrics/query"));
    assertEquals(Need.SOLR_ADMIN, new AccessPolicy("metrics").need("/solr/chronix/query"));
  }
}
