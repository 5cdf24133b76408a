package io.chronix.ingest.promql;

import io.chronix.analysis.promql.engine.PromQlException;
import io.chronix.core.live.InProcessQuery;
import io.chronix.core.live.InProcessSeries;
import io.chronix.ingest.solr.InProcessRequest;
import java.io.IOException;
import java.util.List;
import org.apache.solr.client.solrj.embedded.EmbeddedSolrServer;
import org.apache.solr.common.SolrDocumentList;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.params.SolrParams;
import org.apache.solr.common.util.NamedList;
import org.apache.solr.response.SolrQueryResponse;

/**
 * A series query on the embedded node's core, run in this thread without SolrJ: the plugin answers
 * the series' points as objects ({@link InProcessQuery}), which the engine takes as they are. Through
 * the embedded SolrJ client the answer was encoded by the plugin, written to javabin and read back,
 * then decoded by the engine. Solr's errors become PromQL errors as on the SolrJ path.
 */
final class InProcessSearch {

  private InProcessSearch() {}

  static SolrDocumentList query(EmbeddedSolrServer server, String collection, String handlerPath, SolrParams params) {
    return (SolrDocumentList) answer(server, collection, handlerPath, params).get("response");
  }

  /** The handler's whole answer, for answers other than series ({@code chronix.fieldValues}, ...). */
  static NamedList<Object> answer(EmbeddedSolrServer server, String collection, String handlerPath, SolrParams params) {
    return answer(server, collection, handlerPath, params, false);
  }

  /** A series query's answer: the series as objects, or (where the plugin answered so) as documents. */
  record Series(List<InProcessSeries> objects, SolrDocumentList documents) {}

  /**
   * The series of a query asked for as objects ({@link InProcessQuery#SERIES}): all of them, not
   * paged, where the query answers points only; else the plugin's documents.
   */
  @SuppressWarnings("unchecked")
  static Series series(EmbeddedSolrServer server, String collection, String handlerPath, SolrParams params) {
    NamedList<Object> answer = answer(server, collection, handlerPath, params, true);
    List<InProcessSeries> objects = (List<InProcessSeries>) answer.get(InProcessQuery.SERIES);
    return new Series(objects, objects == null ? (SolrDocumentList) answer.get("response") : null);
  }

  private static NamedList<Object> answer(EmbeddedSolrServer server, String collection, String handlerPath,
      SolrParams params, boolean seriesAsObjects) {
    SolrQueryResponse response;
    try {
      response = InProcessRequest.search(server, collection, handlerPath, params, seriesAsObjects);
    } catch (IOException e) {
      throw new PromQlException(PromQlException.Type.INTERNAL, e.getMessage(), e);
    }
    Exception failure = response.getException();
    if (failure != null) {
      throw asPromQl(failure);
    }
    return response.getValues();
  }

  /** A failure of the store as the PromQL error it is for the client. */
  static PromQlException asPromQl(Exception failure) {
    int code = failure instanceof SolrException solrFailure ? solrFailure.code() : 500;
    if (code == 400) {
      // the plugin's limit on decoded points, or a selector Solr cannot run
      return PromQlException.execution(failure.getMessage());
    }
    if (code == 503) {
      // the points the queries in flight decode at once: to retry
      return new PromQlException(PromQlException.Type.UNAVAILABLE, failure.getMessage(), failure);
    }
    return new PromQlException(PromQlException.Type.INTERNAL, "the store failed: " + failure.getMessage(), failure);
  }
}
