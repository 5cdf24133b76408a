package io.chronix.ingest.solr;

import io.chronix.core.live.InProcessQuery;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import org.apache.lucene.index.IndexableField;
import org.apache.solr.client.solrj.embedded.EmbeddedSolrServer;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrDocumentList;
import org.apache.solr.common.params.CursorMarkParams;
import org.apache.solr.common.params.SolrParams;
import org.apache.solr.common.util.NamedList;
import org.apache.solr.core.SolrCore;
import org.apache.solr.request.LocalSolrQueryRequest;
import org.apache.solr.request.SolrQueryRequest;
import org.apache.solr.request.SolrRequestInfo;
import org.apache.solr.response.DocsStreamer;
import org.apache.solr.response.ResultContext;
import org.apache.solr.response.SolrQueryResponse;
import org.apache.solr.schema.IndexSchema;
import org.apache.solr.schema.SchemaField;

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
   * A query to the core's {@code /select} handler, answered as SolrJ would answer it (the
   * documents, their count and the next cursor mark) without writing them to javabin and reading
   * them back: for bulk readers such as compaction, whose blobs went through that round trip
   * (docs/benchmarks.md, "Compaction by batches"). A binary field's value is a {@link
   * java.nio.ByteBuffer} here.
   *
   * @throws IOException where the core refuses the query, with Solr's reason
   */
  public static QueryResponse select(EmbeddedSolrServer server, String coreName, SolrParams params) throws IOException {
    return run(server, coreName, params, (core, request, response) -> {
      // the handler itself, without SolrCore.execute's request log: that URL-encodes every
      // parameter, a bulk reader's lists of ids included
      core.getRequestHandler("/select").handleRequest(request, response);
      if (response.getException() != null) {
        throw new IOException(response.getException().getMessage(), response.getException());
      }
      ResultContext result = (ResultContext) response.getResponse();
      SolrDocumentList documents = new SolrDocumentList();
      documents.setNumFound(result.getDocList().matches());
      documents.setStart(result.getDocList().offset());
      IndexSchema schema = request.getSchema();
      for (Iterator<SolrDocument> it = result.getProcessedDocuments(); it.hasNext(); ) {
        documents.add(valuesOf(it.next(), schema));
      }
      NamedList<Object> answer = new NamedList<>();
      answer.add("response", documents);
      Object cursor = response.getValues().get(CursorMarkParams.CURSOR_MARK_NEXT);
      if (cursor != null) {
        answer.add(CursorMarkParams.CURSOR_MARK_NEXT, cursor);
      }
      return new QueryResponse(answer, null);
    });
  }

  /** Stored fields as the response writers turn them into values: Strings, Longs, ByteBuffers. */
  private static SolrDocument valuesOf(SolrDocument document, IndexSchema schema) {
    for (String name : document.getFieldNames()) {
      SchemaField field = schema.getFieldOrNull(name);
      Collection<Object> values = document.getFieldValues(name);
      if (field == null || values == null || values.stream().noneMatch(IndexableField.class::isInstance)) {
        continue;
      }
      List<Object> converted = new ArrayList<>(values.size());
      for (Object value : values) {
        converted.add(value instanceof IndexableField stored ? DocsStreamer.getValue(field, stored) : value);
      }
      document.setField(name, converted.size() == 1 ? converted.get(0) : converted);
    }
    return document;
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
