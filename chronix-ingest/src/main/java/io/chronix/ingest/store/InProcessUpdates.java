package io.chronix.ingest.store;

import io.chronix.ingest.solr.InProcessRequest;
import java.io.IOException;
import java.util.List;
import org.apache.solr.client.solrj.embedded.EmbeddedSolrServer;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.apache.solr.update.AddUpdateCommand;
import org.apache.solr.update.processor.UpdateRequestProcessor;

/**
 * Adds documents to the embedded node's core in this thread, through the core's default update
 * chain as {@code /update} would run it. Through the embedded SolrJ client every batch was written
 * to javabin and read back before the chain saw it: an eighth of the flusher's CPU and of the
 * server's allocation under a fleet's load (docs/benchmarks.md).
 */
final class InProcessUpdates {

  private InProcessUpdates() {}

  static void add(EmbeddedSolrServer server, String collection, List<SolrInputDocument> documents, int commitWithinMs)
      throws IOException {
    InProcessRequest.run(server, collection, new ModifiableSolrParams(), (core, request, response) -> {
      try {
        UpdateRequestProcessor processor = core.getUpdateProcessingChain(null).createProcessor(request, response);
        try {
          for (SolrInputDocument document : documents) {
            AddUpdateCommand add = new AddUpdateCommand(request);
            add.solrDoc = document;
            add.commitWithin = commitWithinMs;
            processor.processAdd(add);
          }
          processor.finish();
        } finally {
          processor.close();
        }
      } catch (SolrException e) {
        throw new IOException("Solr refused " + documents.size() + " records: " + e.getMessage(), e);
      }
      return null;
    });
  }
}
