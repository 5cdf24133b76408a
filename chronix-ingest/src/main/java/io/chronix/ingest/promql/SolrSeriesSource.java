package io.chronix.ingest.promql;

import io.chronix.analysis.promql.engine.PromQlException;
import io.chronix.analysis.promql.engine.RawSeries;
import io.chronix.analysis.promql.engine.SeriesSource;
import io.chronix.analysis.promql.model.LabelMatcher;
import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.codec.CorruptBlobException;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesMerge;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.request.QueryRequest;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrDocumentList;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.params.ModifiableSolrParams;

/**
 * The store as the PromQL engine's source: a selector and time range become one series query of
 * the Chronix plugin ({@code chronix.match}, {@code cj=*}), which selects records by their fields,
 * reads only those overlapping the range, joins each series' chunks, adds points still buffered
 * and answers each series with its points as a blob. Millisecond timestamps, as PromQL has them:
 * points within one millisecond collapse to the last.
 */
public final class SolrSeriesSource implements SeriesSource {

  static final String QUERY_HANDLER = "/query";

  private final SolrClient solr;
  private final String collection;
  private final int maxSeries;

  public SolrSeriesSource(SolrClient solr, String collection, int maxSeries) {
    this.solr = solr;
    this.collection = collection;
    this.maxSeries = maxSeries;
  }

  /** The selector in PromQL syntax, as the plugin's chronix.match parameter takes it. */
  static String selector(List<LabelMatcher> matchers) {
    StringBuilder text = new StringBuilder("{");
    for (int i = 0; i < matchers.size(); i++) {
      if (i > 0) {
        text.append(',');
      }
      text.append(matchers.get(i));
    }
    return text.append('}').toString();
  }

  @Override
  public List<RawSeries> select(List<LabelMatcher> matchers, long minTime, long maxTime) {
    ModifiableSolrParams params = new ModifiableSolrParams();
    params.set("q", "start:" + minTime + " AND end:" + maxTime);
    params.set("chronix.match", selector(matchers));
    params.set("cj", "*");
    params.set("fl", "*,+data");
    params.set("rows", maxSeries + 1);
    SolrDocumentList documents = query(solr, collection, params);
    if (documents.getNumFound() > maxSeries) {
      throw PromQlException.execution("the selector " + selector(matchers) + " matches " + documents.getNumFound()
          + " series, more than promql.maxSeries (" + maxSeries + "); narrow it down");
    }
    Map<Labels, List<Points>> byLabels = new LinkedHashMap<>();
    for (SolrDocument document : documents) {
      Object data = document.getFieldValue("data");
      if (!(data instanceof byte[] blob)) {
        continue;
      }
      Points points;
      try {
        points = ChunkCodec.decode(blob);
      } catch (CorruptBlobException e) {
        throw new PromQlException(PromQlException.Type.INTERNAL, "a series of " + selector(matchers)
            + " could not be decoded: " + e.getMessage(), e);
      }
      byLabels.computeIfAbsent(SeriesLabels.of(document), l -> new ArrayList<>()).add(points);
    }
    List<RawSeries> result = new ArrayList<>(byLabels.size());
    for (Map.Entry<Labels, List<Points>> entry : byLabels.entrySet()) {
      // series equal but for their value type or origin show as one, as their labels are equal
      Points points = entry.getValue().size() == 1 ? entry.getValue().get(0) : SeriesMerge.merge(entry.getValue());
      result.add(RawSeries.fromNanos(entry.getKey(), points));
    }
    result.sort(Comparator.comparing(RawSeries::labels));
    return result;
  }

  /** Runs a series query on the Chronix handler, with Solr's errors as PromQL errors. */
  static SolrDocumentList query(SolrClient solr, String collection, ModifiableSolrParams params) {
    QueryRequest request = new QueryRequest(params, SolrRequest.METHOD.POST);
    request.setPath(QUERY_HANDLER);
    try {
      return request.process(solr, collection).getResults();
    } catch (SolrException e) {
      if (e.code() == 400) {
        // the plugin's limit on decoded points, or a selector Solr cannot run
        throw PromQlException.execution(e.getMessage());
      }
      throw new PromQlException(PromQlException.Type.INTERNAL, "the store failed: " + e.getMessage(), e);
    } catch (SolrServerException | IOException e) {
      throw new PromQlException(PromQlException.Type.INTERNAL, "the store failed: " + e.getMessage(), e);
    }
  }
}
