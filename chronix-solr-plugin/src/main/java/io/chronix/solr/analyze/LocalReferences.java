package io.chronix.solr.analyze;

import io.chronix.analysis.FunctionQueryException;
import io.chronix.analysis.References;
import io.chronix.core.series.Points;
import io.chronix.solr.query.JoinFields;
import io.chronix.solr.query.JoinedSeries;
import io.chronix.solr.query.RecordSelection;
import io.chronix.solr.query.SeriesCollector;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.solr.request.SolrQueryRequest;
import org.apache.solr.search.SyntaxError;

/**
 * Resolves an analysis' reference query (fastdtw's) to one joined series: from the series the
 * coordinator already resolved across shards where it passed them, else on this core.
 */
public final class LocalReferences implements References {

  private final SolrQueryRequest request;
  private final JoinFields join;
  private final SeriesCollector collector;
  private final Date now;
  private final Map<String, Points> resolved = new HashMap<>();

  public LocalReferences(SolrQueryRequest request, JoinFields join, SeriesCollector collector, Date now,
      Map<String, Points> given) {
    this.request = request;
    this.join = join;
    this.collector = collector;
    this.now = now;
    this.resolved.putAll(given);
  }

  @Override
  public Points resolve(String query) {
    return resolved.computeIfAbsent(query, this::search);
  }

  private Points search(String query) {
    try {
      RecordSelection selection = RecordSelection.parse(query, now, request);
      List<JoinedSeries> series = collector.collect(request.getSearcher(), List.of(selection.query()),
          selection.range(), join);
      return single(query, series.size(), series.isEmpty() ? null : series.get(0).points());
    } catch (SyntaxError e) {
      throw new FunctionQueryException("reference query '" + query + "' cannot be parsed: " + e.getMessage());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A reference must name exactly one series. */
  public static Points single(String query, int found, Points points) {
    if (found != 1) {
      throw new FunctionQueryException("reference query '" + query + "' matches " + found
          + " series; it must match exactly one");
    }
    return points;
  }
}
