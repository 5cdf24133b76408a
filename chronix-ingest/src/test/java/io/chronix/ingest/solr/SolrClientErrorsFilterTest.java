package io.chronix.ingest.solr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Only Solr's client-error events become a line; everything else its logger says passes as it was. */
class SolrClientErrorsFilterTest {

  @Test
  void aClientErrorOfAnotherShapeOrAServerErrorPasses() throws Exception {
    List<String> lines = new CopyOnWriteArrayList<>();
    SolrClientErrors errors = new SolrClientErrors(lines::add).install();
    LogEvents events = new LogEvents();
    try {
      org.slf4j.Logger solr = LoggerFactory.getLogger("org.apache.solr.handler.RequestHandlerBase");
      solr.error("Client exception"); // no exception: not the shape Solr logs
      solr.warn("Client exception", new IllegalArgumentException("a warning"));
      solr.error("Server exception", new IllegalStateException("boom"));
      solr.error("Client exception", new IllegalArgumentException("bad cf"));
      assertEquals(List.of("request refused with 400: bad cf"), lines, "the warning and the server error are not refusals");
      // the event without an exception and the server exception still reach the appenders
      assertEquals(2, events.messages("org.apache.solr.handler.RequestHandlerBase", Level.ERROR).size());
    } finally {
      events.close();
      errors.uninstall();
    }
  }
}
