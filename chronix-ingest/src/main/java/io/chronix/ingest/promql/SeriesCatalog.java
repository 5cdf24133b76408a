package io.chronix.ingest.promql;

import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.series.PrometheusNames;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.embedded.EmbeddedSolrServer;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.params.ModifiableSolrParams;

/**
 * Which series exist, for the series, labels and label values endpoints: the label sets of the
 * series with a record (or buffered points) in the time range, without reading any points.
 */
public final class SeriesCatalog {

  /** The plugin's parameters asking for a field's values and for the fields with values (a runtime dependency). */
  static final String FIELD_VALUES = "chronix.fieldValues";
  static final String FIELD_NAMES = "chronix.fieldNames";
  static final String SERIES_FIELDS = "chronix.seriesFields";

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
    List<ListedSeries> listed = listed(selectors, start, end);
    List<Labels> labels = new ArrayList<>(listed.size());
    for (ListedSeries series : listed) {
      labels.add(series.labels());
    }
    return labels;
  }

  /** As {@link #series}, each with its JSON where the store keeps its row ({@link ListedSeries}). */
  List<ListedSeries> listed(List<String> selectors, long start, long end) {
    List<?> columns = fromColumns(selectors, start, end, SERIES_FIELDS, true, "seriesFields");
    if (columns != null) {
      // sized for the rows, which are distinct: grown from 16 the map rehashed a listing's series seven times
      Map<Labels, ListedSeries> distinct = new HashMap<>(columns.size() * 4 / 3 + 1);
      SeriesLabels.Shared shared = new SeriesLabels.Shared();
      for (Object fields : columns) {
        @SuppressWarnings("unchecked") // the plugin's seriesFields: each series' fields by name
        Map<String, ?> byName = (Map<String, ?>) fields;
        ListedSeries series = ListedSeries.of(byName, shared);
        distinct.putIfAbsent(series.labels(), series);
      }
      return sorted(distinct.values());
    }
    ModifiableSolrParams params = matching(selectors, start, end);
    params.set("cj", "*");
    params.set("chronix.keys", true);
    params.set("fl", "*");
    Map<Labels, ListedSeries> distinct = new LinkedHashMap<>();
    SeriesLabels.Shared shared = new SeriesLabels.Shared();
    for (SolrDocument document : SolrSeriesSource.search(solr, collection, params)) {
      Labels labels = SeriesLabels.of(document, shared);
      distinct.putIfAbsent(labels, new ListedSeries(labels));
    }
    return sorted(distinct.values());
  }

  private static List<ListedSeries> sorted(Collection<ListedSeries> series) {
    List<ListedSeries> sorted = new ArrayList<>(series);
    sorted.sort(null);
    return sorted;
  }

  /** The label names of those series (escaped as Prometheus shows them), sorted. */
  public List<String> labelNames(List<String> selectors, long start, long end) {
    TreeSet<String> names = new TreeSet<>();
    List<?> columns = fromColumns(selectors, start, end, FIELD_NAMES, true, "fieldNames");
    if (columns != null) {
      for (Object field : columns) {
        String label = SeriesLabels.labelOf((String) field);
        if (label != null) {
          names.add(PrometheusNames.escape(label));
        }
      }
      return new ArrayList<>(names);
    }
    for (Labels labels : series(selectors, start, end)) {
      for (int i = 0; i < labels.size(); i++) {
        names.add(PrometheusNames.escape(labels.name(i)));
      }
    }
    return new ArrayList<>(names);
  }

  /** The values the label has in those series, sorted; series without it are left out. */
  public List<String> labelValues(String label, List<String> selectors, long start, long end) {
    List<?> columns = fromColumns(selectors, start, end, FIELD_VALUES, PrometheusNames.fieldOf(label), "fieldValues");
    if (columns != null) {
      // the plugin's fieldValues are distinct and sorted (docs/query.md)
      List<String> values = new ArrayList<>(columns.size());
      for (Object value : columns) {
        if (!((String) value).isEmpty()) {
          values.add((String) value);
        }
      }
      return values;
    }
    TreeSet<String> values = new TreeSet<>();
    for (Labels labels : series(selectors, start, end)) {
      String value = labels.get(label);
      if (!value.isEmpty()) {
        values.add(value);
      }
    }
    return new ArrayList<>(values);
  }

  /**
   * The plugin's answer read from the store's columns ({@code parameter} set, the answer's entry
   * {@code answer}) where the node is embedded, not a document per series; null elsewhere (an
   * external Solr or SolrCloud lists the series).
   */
  private List<?> fromColumns(List<String> selectors, long start, long end, String parameter, Object value,
      String answer) {
    if (!(solr instanceof EmbeddedSolrServer embedded)) {
      return null;
    }
    ModifiableSolrParams params = matching(selectors, start, end);
    params.set(parameter, String.valueOf(value));
    return (List<?>) InProcessSearch.answer(embedded, collection, SolrSeriesSource.QUERY_HANDLER, params).get(answer);
  }

  /** The records and buffered series of the selectors (all but strings without any) in the range. */
  private static ModifiableSolrParams matching(List<String> selectors, long start, long end) {
    ModifiableSolrParams params = new ModifiableSolrParams();
    params.set("q", "start:" + start + " AND end:" + end);
    if (selectors.isEmpty()) {
      params.set("fq", "-type:string");
    } else {
      params.set("chronix.match", selectors.toArray(new String[0]));
    }
    return params;
  }
}
