package io.chronix.ingest.solr;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which of Solr's admin handlers only report: those leave the kept PromQL answers alone. */
class SolrUpdateWatchTest {

  @Test
  void reportingHandlersOfTheNodeAndOfACore() {
    for (String path : new String[] {"/solr/chronix/admin/ping", "/solr/admin/info/system", "/solr/admin/metrics",
        "/solr/chronix/admin/luke", "/solr/chronix/admin/segments"}) {
      assertTrue(SolrUpdateWatch.reports(path), path);
    }
  }

  @Test
  void everyOtherHandlerMayChangeRecords() {
    for (String path : new String[] {"/solr/chronix/update", "/solr/chronix/update/json", "/solr/admin/cores",
        "/solr/chronix/replication", "/solr/chronix/config", "/solr/chronix/admin/pingx",
        "/solr/chronix/update/admin/ping", "/solr/chronix/schema"}) {
      assertFalse(SolrUpdateWatch.reports(path), path);
    }
  }
}
