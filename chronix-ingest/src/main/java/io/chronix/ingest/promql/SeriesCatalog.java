package io.chronix.ingest.promql;

import io.chronix.analysis.promql.model.Labels;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.params.ModifiableSolrParams;

/**
 * Which series exist, for the series, labels and label values endpoints: the label sets of the
 * series with a record (or buffered points) in the time range, without reading any points.
 */
public final class SeriesCatalog {

  private final SolrClient solr;
  private final String collection;

  public SeriesCatalog(SolrClient solr, String collection) {
    this.solr = solr;
    this.collection = collection;
  }

  /**
   * The label sets of the series matching any of the selectors (all series when there are none),
   * with data between start and end (epoch milliseconds, inclusive).
   */
  public List<Labels> series(List<String> selectors, long start, long end) {
    ModifiableSolrParams params = new ModifiableSolrParams();
    params.set("q", "start:" + start + " AND end:" + end);
    if (selectors.isEmpty()) {
      params.set("fq", "-type:string");
    } else {
      params.set("chronix.match", selectors.toArray(new String[0]));
    }
    params.set("cj", "*");
    params.set("chronix.keys", true);
    params.set("fl", "*");
    Set<Labels> labels = new LinkedHashSet<>();
    for (SolrDocument document : SolrSeriesSource.search(solr, collection, params)) {
      labels.add(SeriesLabels.of(document));
    }
    List<Labels> sorted = new ArrayList<>(labels);
    sorted.sort(null);
    return sorted;
  }
}
