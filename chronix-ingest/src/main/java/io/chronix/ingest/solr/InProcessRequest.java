package io.chronix.ingest.solr;

import io.chronix.core.live.InProcessQuery;
import java.io.IOException;
import org.apache.solr.client.solrj.embedded.EmbeddedSolrServer;
import org.apache.solr.common.params.SolrParams;
import org.apache.solr.core.SolrCore;
import org.apache.solr.request.LocalSolrQueryRequest;
import org.apache.solr.request.SolrQueryRequest;
import org.apache.solr.request.SolrRequestInfo;
import org.apache.solr.response.SolrQueryResponse;

/**
 * A request to one of the embedded node's cores, run in the caller's thread without SolrJ: the
 * embedded client writes every request and answer to javabin and reads it back. Owns the request's
 * life: the core held, the request info Solr's components look up, both let go afterwards.
 */
public final class InProcessRequest {

  /** What runs with the core, the request and its response. */
  @FunctionalInterface
  public interface Work<T> {
    T run(SolrCore core, SolrQueryRequest request, SolrQueryResponse response) throws IOException;
  }

  private InProcessRequest() {}

  /** @throws IOException where the node has no such core, or where the work fails so */
  public static <T> T run(EmbeddedSolrServer server, String coreName, SolrParams params, Work<T> work)
      throws IOException {
    try (SolrCore core = server.getCoreContainer().getCore(coreName)) {
      if (core == null) {
        throw new IOException("the store has no core " + coreName);
      }
      SolrQueryRequest request = new LocalSolrQueryRequest(core, params);
      SolrQueryResponse response = new SolrQueryResponse();
      SolrRequestInfo.setRequestInfo(new SolrRequestInfo(request, response));
      try {
        return work.run(core, request, response);
      } finally {
        SolrRequestInfo.clearRequestInfo();
        request.close();
      }
    }
  }

  /**
   * A series query to a handler of the plugin, its points answered as objects ({@link
   * InProcessQuery#POINTS}; with {@code seriesAsObjects} also its series, where it answers points
   * only, {@link InProcessQuery#SERIES}). The response holds the failure, if any, for the caller to
   * tell the client in its own terms.
   */
  public static SolrQueryResponse search(EmbeddedSolrServer server, String coreName, String handlerPath,
      SolrParams params, boolean seriesAsObjects) throws IOException {
    return run(server, coreName, params, (core, request, response) -> {
      request.getContext().put(InProcessQuery.POINTS, Boolean.TRUE);
      if (seriesAsObjects) {
        request.getContext().put(InProcessQuery.SERIES, Boolean.TRUE);
      }
      core.execute(core.getRequestHandler(handlerPath), request, response);
      return response;
    });
  }
}
