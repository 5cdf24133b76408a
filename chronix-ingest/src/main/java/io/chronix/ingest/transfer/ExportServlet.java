package io.chronix.ingest.transfer;

import io.chronix.analysis.promql.engine.PromQlException;
import io.chronix.core.budget.LimitRefusal;
import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.codec.CorruptBlobException;
import io.chronix.core.series.Points;
import io.chronix.ingest.http.JsonResponses;
import io.chronix.ingest.promql.ApiParameters;
import io.chronix.ingest.promql.SeriesLabels;
import java.io.IOException;
import java.util.List;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.request.QueryRequest;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.SolrDocumentList;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET|POST /api/v1/export?match[]=<selector>&start=&end=}: every numeric series the
 * selectors match, with its points in the range, in VictoriaMetrics' JSON-lines format ({@link
 * JsonLinesWriter}), as VictoriaMetrics' own export answers. Streamed: the series are read a page
 * at a time and written as they come, so the answer is never held whole; a page holds as many series
 * as make about a million points ({@link ExportPages}).
 * Buffered points are included (the series query adds them). String series have no place in the
 * format and are left out.
 */
public final class ExportServlet extends HttpServlet {

  private static final Logger LOG = LoggerFactory.getLogger(ExportServlet.class);

  private final transient SolrClient solr;
  private final String collection;

  public ExportServlet(SolrClient solr, String collection) {
    this.solr = solr;
    this.collection = collection;
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
    export(request, response);
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
    export(request, response);
  }

  private void export(HttpServletRequest request, HttpServletResponse response) throws IOException {
    List<String> selectors;
    long start;
    long end;
    try {
      selectors = ApiParameters.selectors(request.getParameterValues("match[]"));
      if (selectors.isEmpty()) {
        throw PromQlException.badData("no match[] parameter provided: name the series to export, "
            + "e.g. match[]={__name__=~\".+\"} for all");
      }
      start = ApiParameters.timeOr("start", request.getParameter("start"), ApiParameters.MIN_TIME);
      end = ApiParameters.timeOr("end", request.getParameter("end"), ApiParameters.MAX_TIME);
    } catch (PromQlException e) {
      JsonResponses.error(response, 400, e.getMessage());
      return;
    }
    ExportPages pages = new ExportPages();
    Page first;
    try {
      first = page(selectors, start, end, 0, pages);
    } catch (SeriesTooLong e) {
      JsonResponses.error(response, 422, e.getMessage());
      return;
    } catch (IOException e) {
      response.setHeader("Retry-After", "1");
      JsonResponses.error(response, 503, "export: the store did not answer: " + e.getMessage());
      return;
    }
    response.setStatus(200);
    response.setContentType("application/stream+json");
    response.setCharacterEncoding("UTF-8");
    try (JsonLinesWriter writer = new JsonLinesWriter(response.getOutputStream())) {
      Page page = first;
      long offset = 0;
      while (true) {
        long points = 0;
        for (SolrDocument document : page.documents()) {
          Object data = document.getFieldValue("data");
          if (data instanceof byte[] blob) {
            Points decoded = decode(blob, document);
            points += decoded.size();
            writer.write(SeriesLabels.of(document), decoded);
          }
        }
        writer.flush();
        offset += page.documents().size();
        if (page.documents().size() < page.rows()) {
          break;
        }
        pages.answered(page.documents().size(), points);
        page = page(selectors, start, end, offset, pages);
      }
    } catch (IOException e) {
      // the status is sent: a client sees the answer end early, without the last line's newline
      LOG.warn("export of {} stopped after an error: {}", selectors, e.toString());
      throw e;
    }
  }

  /** A page's series and how many were asked for: fewer mean the last page. */
  private record Page(SolrDocumentList documents, int rows) {}

  /** A series with more points in the range than the store decodes for one query. */
  private static final class SeriesTooLong extends IOException {
    SeriesTooLong(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** The page at {@code offset}, asked again with fewer series while the store refuses it for its points. */
  private Page page(List<String> selectors, long start, long end, long offset, ExportPages pages) throws IOException {
    while (true) {
      int rows = pages.rows();
      try {
        return new Page(query(selectors, start, end, offset, rows), rows);
      } catch (SolrServerException | RuntimeException e) {
        if (!isPointsRefusal(e)) {
          throw new IOException(e.getMessage(), e);
        }
        if (!pages.refused()) {
          throw new SeriesTooLong("export: series " + (offset + 1) + " of the match has more points in the range than"
              + " the store decodes for one query (" + e.getMessage() + "); export it in parts with start and end,"
              + " or raise chronix.maxDecodedPoints", e);
        }
      }
    }
  }

  /** Whether the store refused a query for the points it would decode ({@link LimitRefusal}), not for anything else. */
  static boolean isPointsRefusal(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SolrException refusal && refusal.code() == SolrException.ErrorCode.BAD_REQUEST.code
          && refusal.getMetadata(LimitRefusal.METADATA_KEY) != null) {
        return true;
      }
    }
    return false;
  }

  private static Points decode(byte[] blob, SolrDocument document) throws IOException {
    try {
      return ChunkCodec.decode(blob);
    } catch (CorruptBlobException e) {
      throw new IOException("series " + SeriesLabels.of(document) + " could not be decoded: " + e.getMessage(), e);
    }
  }

  /** One page of series, each with its points in the range as a blob, in the query's stable series order. */
  private SolrDocumentList query(List<String> selectors, long start, long end, long offset, int rows)
      throws SolrServerException {
    ModifiableSolrParams params = new ModifiableSolrParams();
    params.set("q", "start:" + start + " AND end:" + end);
    params.set("fq", "-type:string");
    params.set("chronix.match", selectors.toArray(new String[0]));
    params.set("cj", "*");
    params.set("fl", "*,+data");
    params.set("start", Long.toString(offset));
    params.set("rows", rows);
    QueryRequest request = new QueryRequest(params, SolrRequest.METHOD.POST);
    request.setPath("/query");
    try {
      return request.process(solr, collection).getResults();
    } catch (IOException e) {
      throw new SolrServerException(e.getMessage(), e);
    }
  }
}
