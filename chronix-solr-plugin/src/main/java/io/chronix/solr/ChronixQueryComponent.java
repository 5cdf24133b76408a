package io.chronix.solr;

import io.chronix.core.record.RecordFields;
import io.chronix.core.series.Precision;
import io.chronix.solr.query.SeriesCollector;
import io.chronix.solr.query.SeriesCollector.Series;
import io.chronix.solr.query.TimeRange;
import io.chronix.solr.query.TimeRangeQuery;
import io.chronix.solr.response.SeriesJson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.search.Query;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrDocumentList;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.params.CommonParams;
import org.apache.solr.common.params.SolrParams;
import org.apache.solr.common.util.NamedList;
import org.apache.solr.common.util.SimpleOrderedMap;
import org.apache.solr.handler.component.ResponseBuilder;
import org.apache.solr.handler.component.SearchComponent;
import org.apache.solr.request.SolrRequestInfo;
import org.apache.solr.search.DocSet;
import org.apache.solr.search.QParser;
import org.apache.solr.search.SyntaxError;

/**
 * Answers Chronix series queries: {@code q} with {@code start:}/{@code end:} terms selects records,
 * the records of each series are joined, clipped to the range and returned one document per series
 * (see docs/query.md for parameters and response).
 */
public class ChronixQueryComponent extends SearchComponent {

  /** Field list entry that adds the points as JSON. */
  public static final String DATA_AS_JSON = "dataAsJson";
  /** Request parameter: unit of returned timestamps (ns, us, ms, s); ms by default. */
  public static final String PRECISION = "precision";
  /** Response header entry echoing the parsed time range. */
  public static final String RANGE_HEADER = "chronixRange";

  private static final String RANGE_CONTEXT = ChronixQueryComponent.class.getName() + ".range";

  private long maxDecodedPoints = 50_000_000L;

  @Override
  public void init(NamedList<?> args) {
    super.init(args);
    Object limit = args.get("maxDecodedPoints");
    if (limit != null) {
      maxDecodedPoints = Long.parseLong(limit.toString());
    }
  }

  @Override
  public void prepare(ResponseBuilder rb) throws IOException {
    SolrParams params = rb.req.getParams();
    Date now = SolrRequestInfo.getRequestInfo() != null ? SolrRequestInfo.getRequestInfo().getNOW() : new Date();
    TimeRangeQuery parsed = TimeRangeQuery.parse(params.get(CommonParams.Q, "*:*"), now);
    rb.req.getContext().put(RANGE_CONTEXT, parsed.range());
    if (parsed.bounded()) {
      SimpleOrderedMap<Object> echo = new SimpleOrderedMap<>();
      echo.add("start", parsed.range().fromMillis());
      echo.add("end", parsed.range().toMillis());
      rb.rsp.getResponseHeader().add(RANGE_HEADER, echo);
    }
    try {
      QParser parser = QParser.getParser(parsed.query(), rb.req);
      rb.setQparser(parser);
      rb.setQuery(parser.getQuery());
      String[] filterQueries = params.getParams(CommonParams.FQ);
      if (filterQueries != null) {
        List<Query> filters = new ArrayList<>();
        for (String fq : filterQueries) {
          if (fq != null && !fq.isBlank()) {
            filters.add(QParser.getParser(fq, rb.req).getQuery());
          }
        }
        rb.setFilters(filters);
      }
    } catch (SyntaxError e) {
      throw new SolrException(SolrException.ErrorCode.BAD_REQUEST, "cannot parse query: " + e.getMessage(), e);
    }
  }

  @Override
  public void process(ResponseBuilder rb) throws IOException {
    SolrParams params = rb.req.getParams();
    Precision precision = parsePrecision(params.get(PRECISION, "ms"));
    List<Query> queries = new ArrayList<>();
    queries.add(rb.getQuery());
    if (rb.getFilters() != null) {
      queries.addAll(rb.getFilters());
    }
    DocSet docs = rb.req.getSearcher().getDocSet(queries);
    TimeRange range = (TimeRange) rb.req.getContext().get(RANGE_CONTEXT);
    List<Series> series = new SeriesCollector(maxDecodedPoints).collect(rb.req.getSearcher(), docs, range);

    int offset = params.getInt(CommonParams.START, 0);
    int rows = params.getInt(CommonParams.ROWS, Integer.MAX_VALUE);
    FieldList fields = FieldList.parse(params.getParams(CommonParams.FL));
    SolrDocumentList result = new SolrDocumentList();
    result.setNumFound(series.size());
    result.setStart(offset);
    result.setNumFoundExact(true);
    for (int i = offset; i < series.size() && i - offset < rows; i++) {
      result.add(toDocument(series.get(i), fields, precision));
    }
    rb.rsp.addResponse(result);
  }

  private static SolrDocument toDocument(Series series, FieldList fields, Precision precision) {
    SolrDocument document = new SolrDocument();
    fields.add(document, RecordFields.NAME, series.key().name());
    fields.add(document, RecordFields.TYPE, series.key().type());
    for (Map.Entry<String, String> attribute : series.key().attributes().entrySet()) {
      fields.add(document, attribute.getKey(), attribute.getValue());
    }
    int n = series.points().size();
    fields.add(document, RecordFields.START, RecordFields.nanosToMillis(series.points().timestamp(0)));
    fields.add(document, RecordFields.END, RecordFields.nanosToMillis(series.points().timestamp(n - 1)));
    fields.add(document, RecordFields.COUNT, (long) n);
    if (fields.wantsData()) {
      document.setField(DATA_AS_JSON, SeriesJson.write(series.points(), precision));
    }
    return document;
  }

  private static Precision parsePrecision(String text) {
    try {
      return Precision.parse(text);
    } catch (IllegalArgumentException e) {
      throw new SolrException(SolrException.ErrorCode.BAD_REQUEST, PRECISION + ": " + e.getMessage());
    }
  }

  @Override
  public int distributedProcess(ResponseBuilder rb) {
    throw new SolrException(SolrException.ErrorCode.BAD_REQUEST,
        "series queries over a sharded collection are not supported by this version of the Chronix"
            + " plugin; query a single core or add distrib=false");
  }

  @Override
  public String getDescription() {
    return "Chronix series query: time range, join of chunks per series, decoding";
  }

  /** Which fields the client asked for; none or '*' means all metadata. */
  private static final class FieldList {
    private final Set<String> names;
    private final boolean all;
    private final boolean data;

    private FieldList(Set<String> names, boolean all, boolean data) {
      this.names = names;
      this.all = all;
      this.data = data;
    }

    static FieldList parse(String[] fl) {
      Set<String> names = new LinkedHashSet<>();
      if (fl != null) {
        for (String entry : fl) {
          for (String name : entry.split("[,\\s]+")) {
            if (!name.isEmpty()) {
              names.add(name);
            }
          }
        }
      }
      boolean data = names.remove(DATA_AS_JSON);
      boolean all = names.isEmpty() || names.remove("*");
      return new FieldList(names, all, data);
    }

    void add(SolrDocument document, String name, Object value) {
      if (all || names.contains(name)) {
        document.setField(name, value);
      }
    }

    boolean wantsData() {
      return data;
    }
  }
}
