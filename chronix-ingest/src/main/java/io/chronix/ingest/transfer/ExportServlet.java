package io.chronix.ingest.transfer;

import io.chronix.analysis.promql.engine.PromQlException;
import io.chronix.core.budget.LimitRefusal;
import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.codec.CorruptBlobException;
import io.chronix.core.series.Points;
import io.chronix.ingest.http.JsonResponses;
import io.chronix.ingest.promql.ApiParameters;
import io.chronix.ingest.promql.SeriesLabels;
import io.chronix.ingest.solr.InProcessRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.embedded.EmbeddedSolrServer;
import org.apache.solr.client.solrj.request.QueryRequest;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.SolrDocumentList;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.apache.solr.response.SolrQueryResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET|POST /api/v1/export?match[]=<selector>&start=&end=}: every numeric series the
 * selectors match, with its points in the range, in VictoriaMetrics' JSON-lines format ({@link
 * JsonLinesWriter}), as VictoriaMetrics' own export answers. Streamed: the series are read a page
 * at a time and written as they come, so the answer is never held whole; a page holds as many series
 * as make about a million points ({@link ExportPages}), and a series with more points than the store
 * decodes for one query comes out in slices of time ({@link SeriesSlices}). Buffered points are
 * included (the series query adds them). String series have no place in the format and are left
 * out.
 */
public final class ExportServlet extends HttpServlet {

  private static final Logger LOG = LoggerFactory.getLogger(ExportServlet.class);
  /** Where the store answers a series' function values (the plugin's {@code SeriesDocuments.FUNCTIONS}). */
  private static final String FUNCTIONS = "functions";
  private static final String HANDLER = "/query";

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
    } catch (IOException e) {
      response.setHeader("Retry-After", "1");
      JsonResponses.error(response, 503, "export: the store did not answer: " + e.getMessage());
      return;
    }
    response.setStatus(200);
    response.setContentType("application/stream+json");
    response.setCharacterEncoding("UTF-8");
    try (JsonLinesWriter writer = new JsonLinesWriter(response.getOutputStream());
        PageAhead<Page> ahead = new PageAhead<>()) {
      Page page = first;
      long offset = 0;
      while (true) {
        if (page.documents() == null) {
          // one series with more points than a query decodes: it alone, in slices of time
          SolrDocument series = seriesAt(selectors, start, end, offset);
          if (series == null) {
            break; // past the last series (a page there is refused for series decoded to tell)
          }
          new SeriesSlices(this::slice, start, end).write(series, writer);
          writer.flush();
          offset++;
          page = page(selectors, start, end, offset, pages);
          continue;
        }
        List<Points> decoded = new ArrayList<>(page.documents().size());
        long points = 0;
        for (SolrDocument document : page.documents()) {
          Points series = points(document);
          decoded.add(series);
          points += series == null ? 0 : series.size();
        }
        offset += page.documents().size();
        boolean last = page.documents().size() < page.rows();
        if (!last) {
          // the next page is read while this one is written
          pages.answered(page.documents().size(), points);
          long next = offset;
          ahead.ask(() -> page(selectors, start, end, next, pages));
        }
        for (int i = 0; i < decoded.size(); i++) {
          if (decoded.get(i) != null) {
            writer.write(SeriesLabels.of(page.documents().get(i)), decoded.get(i));
          }
        }
        writer.flush();
        if (last) {
          break;
        }
        page = ahead.take();
      }
    } catch (IOException e) {
      // the status is sent: a client sees the answer end early, without the last line's newline
      LOG.warn("export of {} stopped after an error: {}", selectors, e.toString());
      throw e;
    }
  }

  /**
   * A page's series and how many were asked for (fewer mean the last page); no documents where
   * the page's single series has more points in the range than the store decodes for one query.
   */
  private record Page(SolrDocumentList documents, int rows) {}

  /** The page at {@code offset}, asked again with fewer series while the store refuses it for its points. */
  private Page page(List<String> selectors, long start, long end, long offset, ExportPages pages) throws IOException {
    while (true) {
      int rows = pages.rows();
      try {
        return new Page(query(pageParams(selectors, start, end, offset, rows)), rows);
      } catch (SeriesSlices.Refused e) {
        if (!pages.refused()) {
          return new Page(null, 1);
        }
      }
    }
  }

  /**
   * The series at {@code offset} of the match, with its span and point count in the range but no
   * points: records wholly inside the range answer a count from their statistics.
   */
  private SolrDocument seriesAt(List<String> selectors, long start, long end, long offset) throws IOException {
    ModifiableSolrParams params = pageParams(selectors, start, end, offset, 1);
    params.set("fl", "*");
    params.set("cf", "metric{count}");
    SolrDocumentList found;
    try {
      found = query(params);
    } catch (IOException e) {
      throw new IOException("export: the store did not name series " + (offset + 1) + " of the match: "
          + e.getMessage(), e);
    }
    if (found.isEmpty()) {
      return null;
    }
    SolrDocument series = found.get(0);
    series.removeFields(FUNCTIONS); // the count's answer, not a field of the series
    return series;
  }

  /**
   * The series with exactly these fields, with its points in [{@code from}, {@code to}]: null where
   * it has none there.
   *
   * @throws SeriesSlices.Refused where the store refuses the slice for its points
   */
  private SeriesSlices.Slice slice(Map<String, String> fields, long from, long to) throws IOException {
    ModifiableSolrParams params = new ModifiableSolrParams();
    params.set("q", "start:" + from + " AND end:" + to);
    params.add("fq", "-type:string");
    fields.forEach((field, value) -> params.add("fq", "{!term f=" + field + "}" + value));
    params.set("cj", "*");
    params.set("fl", "*,+data");
    params.set("rows", SeriesSlices.MAX_MATCHES);
    for (SolrDocument document : query(params)) {
      // the filters also match series with more fields than these: their own lines come elsewhere
      Points points = SeriesSlices.seriesFields(document).equals(fields) ? points(document) : null;
      if (points != null) {
        return new SeriesSlices.Slice(SeriesLabels.of(document), points);
      }
    }
    return null;
  }

  /** Whether the store refused a query for the points it would decode ({@link LimitRefusal}), not for anything else. */
  private static boolean isPointsRefusal(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SolrException refusal && refusal.code() == SolrException.ErrorCode.BAD_REQUEST.code
          && refusal.getMetadata(LimitRefusal.METADATA_KEY) != null) {
        return true;
      }
    }
    return false;
  }

  /** A document's points: decoded objects in the process, a blob through a client; null without. */
  private static Points points(SolrDocument document) throws IOException {
    Object data = document.getFieldValue("data");
    if (data instanceof Points points) {
      return points;
    }
    if (!(data instanceof byte[] blob)) {
      return null;
    }
    try {
      return ChunkCodec.decode(blob);
    } catch (CorruptBlobException e) {
      throw new IOException("series " + SeriesLabels.of(document) + " could not be decoded: " + e.getMessage(), e);
    }
  }

  /** One page of series, each with its points in the range as a blob, in the query's stable series order. */
  private static ModifiableSolrParams pageParams(List<String> selectors, long start, long end, long offset, int rows) {
    ModifiableSolrParams params = new ModifiableSolrParams();
    params.set("q", "start:" + start + " AND end:" + end);
    params.set("fq", "-type:string");
    params.set("chronix.match", selectors.toArray(new String[0]));
    params.set("cj", "*");
    params.set("fl", "*,+data");
    params.set("start", Long.toString(offset));
    params.set("rows", rows);
    return params;
  }

  /**
   * The store's answer to a series query.
   *
   * @throws SeriesSlices.Refused where it refuses the query for the points it would decode
   * @throws IOException where it fails otherwise
   */
  private SolrDocumentList query(ModifiableSolrParams params) throws IOException {
    if (solr instanceof EmbeddedSolrServer embedded) {
      // in this thread, the points as objects: through the embedded client the plugin encoded each
      // page's points, javabin copied them and this servlet decoded them again (a sixth of an export)
      SolrQueryResponse response = InProcessRequest.search(embedded, collection, HANDLER, params, false);
      if (response.getException() != null) {
        throw failure(response.getException());
      }
      return (SolrDocumentList) response.getValues().get("response");
    }
    QueryRequest request = new QueryRequest(params, SolrRequest.METHOD.POST);
    request.setPath(HANDLER);
    try {
      return request.process(solr, collection).getResults();
    } catch (SolrServerException | RuntimeException e) {
      throw failure(e);
    }
  }

  private static IOException failure(Exception e) {
    return isPointsRefusal(e) ? new SeriesSlices.Refused(e.getMessage()) : new IOException(e.getMessage(), e);
  }
}
