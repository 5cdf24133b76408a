package io.chronix.ingest.transfer;

import io.chronix.analysis.promql.engine.PromQlException;
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
import org.apache.solr.common.SolrDocumentList;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET|POST /api/v1/export?match[]=<selector>&start=&end=}: every numeric series the
 * selectors match, with its points in the range, in VictoriaMetrics' JSON-lines format ({@link
 * JsonLinesWriter}), as VictoriaMetrics' own export answers. Streamed: the series are read a page
 * at a time ({@value #PAGE} series) and written as they come, so the answer is never held whole.
 * Buffered points are included (the series query adds them). String series have no place in the
 * format and are left out.
 */
public final class ExportServlet extends HttpServlet {

  private static final Logger LOG = LoggerFactory.getLogger(ExportServlet.class);
  static final int PAGE = 50;

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
    SolrDocumentList first;
    try {
      first = page(selectors, start, end, 0);
    } catch (IOException e) {
      response.setHeader("Retry-After", "1");
      JsonResponses.error(response, 503, "export: the store did not answer: " + e.getMessage());
      return;
    }
    response.setStatus(200);
    response.setContentType("application/stream+json");
    response.setCharacterEncoding("UTF-8");
    try (JsonLinesWriter writer = new JsonLinesWriter(response.getOutputStream())) {
      SolrDocumentList page = first;
      long offset = 0;
      while (true) {
        for (SolrDocument document : page) {
          Object data = document.getFieldValue("data");
          if (data instanceof byte[] blob) {
            writer.write(SeriesLabels.of(document), decode(blob, document));
          }
        }
        writer.flush();
        offset += page.size();
        if (page.size() < PAGE) {
          break;
        }
        page = page(selectors, start, end, offset);
      }
    } catch (IOException e) {
      // the status is sent: a client sees the answer end early, without the last line's newline
      LOG.warn("export of {} stopped after an error: {}", selectors, e.toString());
      throw e;
    }
  }

  private static Points decode(byte[] blob, SolrDocument document) throws IOException {
    try {
      return ChunkCodec.decode(blob);
    } catch (CorruptBlobException e) {
      throw new IOException("series " + SeriesLabels.of(document) + " could not be decoded: " + e.getMessage(), e);
    }
  }

  /** One page of series, each with its points in the range as a blob, in the query's stable series order. */
  private SolrDocumentList page(List<String> selectors, long start, long end, long offset) throws IOException {
    ModifiableSolrParams params = new ModifiableSolrParams();
    params.set("q", "start:" + start + " AND end:" + end);
    params.set("fq", "-type:string");
    params.set("chronix.match", selectors.toArray(new String[0]));
    params.set("cj", "*");
    params.set("fl", "*,+data");
    params.set("start", Long.toString(offset));
    params.set("rows", PAGE);
    QueryRequest request = new QueryRequest(params, SolrRequest.METHOD.POST);
    request.setPath("/query");
    try {
      return request.process(solr, collection).getResults();
    } catch (SolrServerException | RuntimeException e) {
      throw new IOException(e.getMessage(), e);
    }
  }
}
