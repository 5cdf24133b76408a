package io.chronix.ingest.solr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.apache.solr.client.solrj.SolrQuery;
import org.junit.jupiter.api.Test;

/** The span filter reaches both ends, inclusive, and stays out of Solr's filter cache. */
class RecordSpansTest {

  @Test
  void overlappingRecordsEndAtOrAfterTheStartAndStartAtOrBeforeTheEnd() {
    SolrQuery query = RecordSpans.overlapping(new SolrQuery("*:*"), 1000, 2000);
    assertArrayEquals(new String[] {"{!cache=false}end:[1000 TO *]", "{!cache=false}start:[* TO 2000]"},
        query.getFilterQueries());
  }
}
