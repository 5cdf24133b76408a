package io.chronix.ingest.promql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.analysis.promql.engine.PromQlException;
import java.io.IOException;
import org.apache.solr.common.SolrException;
import org.junit.jupiter.api.Test;

/**
 * The store's failures as PromQL errors: a refused query (400: the decoded points' limit) is the
 * client's execution error (422); a query the queries in flight leave no room for (503) is
 * unavailable (503), to retry; anything else is internal (500).
 */
class StoreFailuresTest {

  @Test
  void eachFailureIsItsPromQlError() {
    PromQlException refused = InProcessSearch.asPromQl(
        new SolrException(SolrException.ErrorCode.BAD_REQUEST, "the query matches more than 10 points"));
    assertEquals(PromQlException.Type.EXECUTION, refused.type());
    assertEquals(422, ApiWriter.status(refused.type()));
    assertEquals("the query matches more than 10 points", refused.getMessage());

    SolrException busy = new SolrException(SolrException.ErrorCode.SERVICE_UNAVAILABLE, "the requests in flight hold 9");
    PromQlException unavailable = InProcessSearch.asPromQl(busy);
    assertEquals(PromQlException.Type.UNAVAILABLE, unavailable.type());
    assertEquals("unavailable", unavailable.type().apiName());
    assertEquals(503, ApiWriter.status(unavailable.type()));
    assertSame(busy, unavailable.getCause());

    PromQlException failed = InProcessSearch.asPromQl(new IOException("disk"));
    assertEquals(PromQlException.Type.INTERNAL, failed.type());
    assertEquals(500, ApiWriter.status(failed.type()));
    assertTrue(failed.getMessage().startsWith("the store failed: "), failed.getMessage());
  }
}
