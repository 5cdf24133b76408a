package io.chronix.ingest.promql;

import io.chronix.analysis.promql.engine.PromQlException;
import io.chronix.analysis.promql.engine.RawSeries;
import io.chronix.analysis.promql.engine.SeriesSource;
import io.chronix.analysis.promql.engine.TierReader;
import io.chronix.analysis.promql.model.LabelMatcher;
import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.codec.CorruptBlobException;
import io.chronix.core.live.InProcessSeries;
import io.chronix.core.rollup.BucketStats;
import io.chronix.core.rollup.RollupBlob;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesMerge;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.embedded.EmbeddedSolrServer;
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
 * points within one millisecond collapse to the last. With the store's rollup tiers ({@link
 * #withTiers}), range queries read a series' windows of a tier instead of its points where they
 * answer exactly ({@link TierReader}).
 */
public final class SolrSeriesSource implements SeriesSource {

  static final String QUERY_HANDLER = "/query";
  /** The plugin's parameter asking for a tier's windows, and the field answering them (the plugin is a runtime dependency). */
  static final String WINDOWS_PARAM = "chronix.windows";
  static final String WINDOWS_FIELD = "windows";
  /** The plugin's parameter asking for each series' latest point in the range only. */
  static final String LATEST_PARAM = "chronix.latest";
  /** The plugin's parameter for each series' latest point at or before each step time. */
  static final String STEPS_PARAM = "chronix.steps";

  private final SolrClient solr;
  private final String collection;
  private final int maxSeries;
  private List<TierReader.Tier> tiers = List.of();

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
    return select(matchers, minTime, maxTime, false);
  }

  /**
   * Each series' latest sample where the plugin can tell it without joining the series' records
   * ({@code chronix.latest}): a record ending inside the range from its statistics, its blob not
   * read. A topk over 10,000 series at the data's end read and decoded every series' last records.
   */
  @Override
  public List<RawSeries> selectLatest(List<LabelMatcher> matchers, long minTime, long maxTime) {
    return select(matchers, minTime, maxTime, true);
  }

  /**
   * Each series' latest sample at or before each step time ({@code chronix.steps}): a dashboard's
   * {@code sum by} over a day of P4's 117 series at two-minute steps reads 10,000 of their million
   * samples. An older plugin that does not know the parameter answers every sample.
   */
  @Override
  public List<RawSeries> selectSteps(List<LabelMatcher> matchers, long minTime, long maxTime, long firstStep,
      long step) {
    return select(matchers, minTime, maxTime, false, firstStep + "," + step);
  }

  private List<RawSeries> select(List<LabelMatcher> matchers, long minTime, long maxTime, boolean latest) {
    return select(matchers, minTime, maxTime, latest, null);
  }

  private List<RawSeries> select(List<LabelMatcher> matchers, long minTime, long maxTime, boolean latest,
      String steps) {
    Map<Labels, List<Points>> byLabels = new LinkedHashMap<>();
    SeriesLabels.Shared shared = new SeriesLabels.Shared();
    ModifiableSolrParams params = seriesParams(matchers, minTime, maxTime, null, latest, steps);
    InProcessSearch.Series answer = solr instanceof EmbeddedSolrServer embedded
        ? InProcessSearch.series(embedded, collection, QUERY_HANDLER, params)
        : new InProcessSearch.Series(null, search(solr, collection, params));
    List<InProcessSeries> objects = answer.objects();
    if (objects != null) {
      requireAtMostMaxSeries(objects.size(), matchers);
      Map<Labels, List<InProcessSeries>> parts = new LinkedHashMap<>();
      for (InProcessSeries series : objects) {
        parts.computeIfAbsent(SeriesLabels.of(series.fields(), shared), l -> new ArrayList<>()).add(series);
      }
      parts.forEach((labels, same) -> {
        if (same.size() > 1) {
          // the answer comes in any order; joined in the plugin's order, as its documents came
          same.sort(Comparator.comparing(series -> series.sortKey().get()));
        }
        byLabels.put(labels, same.stream().map(InProcessSeries::points).toList());
      });
    } else {
      requireAtMostMaxSeries(answer.documents().getNumFound(), matchers);
      for (SolrDocument document : answer.documents()) {
        Points points = points(document.getFieldValue("data"), matchers);
        if (points != null) {
          byLabels.computeIfAbsent(SeriesLabels.of(document, shared), l -> new ArrayList<>()).add(points);
        }
      }
    }
    List<RawSeries> result = new ArrayList<>(byLabels.size());
    for (Map.Entry<Labels, List<Points>> entry : byLabels.entrySet()) {
      if (latest && entry.getValue().size() > 1) {
        // series equal but for their value type or origin: which latest point wins a shared
        // millisecond is decided by their nanoseconds, which latest points from statistics lack
        return select(matchers, minTime, maxTime, false);
      }
      result.add(joined(entry.getKey(), entry.getValue()));
    }
    result.sort(Comparator.comparing(RawSeries::labels));
    return result;
  }

  /** The store's rollup tiers (rollup.tiers), read by range queries where they answer exactly. */
  public SolrSeriesSource withTiers(List<TierReader.Tier> tiers) {
    SolrSeriesSource withTiers = new SolrSeriesSource(solr, collection, maxSeries);
    withTiers.tiers = List.copyOf(tiers);
    return withTiers;
  }

  @Override
  public Optional<TierReader> tierReader() {
    return tiers.isEmpty() ? Optional.empty() : Optional.of(new Windows());
  }

  /** The plugin's windows of a tier ({@code chronix.windows}), or points where they would not answer exactly. */
  private final class Windows implements TierReader {

    @Override
    public List<Tier> tiers() {
      return tiers;
    }

    @Override
    public List<TieredSeries> selectWindows(List<LabelMatcher> matchers, Tier tier, long minTime, long maxTime) {
      Map<Labels, List<Object>> byLabels = new LinkedHashMap<>();
      SeriesLabels.Shared shared = new SeriesLabels.Shared();
      for (SolrDocument document : documents(matchers, minTime, maxTime, tier.name())) {
        Object windows = document.getFieldValue(WINDOWS_FIELD);
        document.removeFields(WINDOWS_FIELD); // not a label
        Points points = points(document.getFieldValue("data"), matchers);
        Object part = windows instanceof byte[] blob ? windows(blob, matchers) : points;
        if (part != null) {
          byLabels.computeIfAbsent(SeriesLabels.of(document, shared), l -> new ArrayList<>()).add(part);
        }
      }
      List<TieredSeries> result = new ArrayList<>(byLabels.size());
      for (Map.Entry<Labels, List<Object>> entry : byLabels.entrySet()) {
        List<Object> parts = entry.getValue();
        BucketStats windows = parts.stream().allMatch(BucketStats.class::isInstance)
            ? inTurn(parts.stream().map(BucketStats.class::cast).toList()) : null;
        if (windows != null) {
          result.add(new TieredSeries(entry.getKey(), windows, null));
        } else if (parts.stream().allMatch(Points.class::isInstance)) {
          result.add(new TieredSeries(entry.getKey(), null, joined(entry.getKey(), parts.stream().map(Points.class::cast).toList())));
        } else {
          // series equal but for their value type or origin, overlapping in time or partly as points: their samples
          return samplesOnly(matchers, minTime, maxTime);
        }
      }
      result.sort(Comparator.comparing(TieredSeries::labels));
      return result;
    }

    /**
     * The windows of series equal but for their value type or origin, one after the other: null
     * where their samples overlap in time (a shared timestamp keeps one value).
     */
    private static BucketStats inTurn(List<BucketStats> parts) {
      List<BucketStats> sorted = new ArrayList<>(parts);
      sorted.sort(Comparator.comparingLong(windows -> windows.firstTime(0)));
      BucketStats joined = sorted.get(0);
      for (BucketStats next : sorted.subList(1, sorted.size())) {
        if (next.firstTime(0) <= joined.lastTime(joined.size() - 1)) {
          return null;
        }
        joined = joined.then(next);
      }
      return joined;
    }

    private List<TieredSeries> samplesOnly(List<LabelMatcher> matchers, long minTime, long maxTime) {
      List<TieredSeries> result = new ArrayList<>();
      for (RawSeries series : select(matchers, minTime, maxTime)) {
        result.add(new TieredSeries(series.labels(), null, series));
      }
      return result;
    }
  }

  /** The series documents of a selector and range in a tier, as windows where they answer. */
  private SolrDocumentList documents(List<LabelMatcher> matchers, long minTime, long maxTime, String tier) {
    SolrDocumentList documents = search(solr, collection, seriesParams(matchers, minTime, maxTime, tier, false, null));
    requireAtMostMaxSeries(documents.getNumFound(), matchers);
    return documents;
  }

  private void requireAtMostMaxSeries(long found, List<LabelMatcher> matchers) {
    if (found > maxSeries) {
      throw PromQlException.execution("the selector " + selector(matchers) + " matches " + found
          + " series, more than promql.maxSeries (" + maxSeries + "); narrow it down");
    }
  }

  /** The query of a selector's series in a range, as the plugin takes it. */
  private ModifiableSolrParams seriesParams(List<LabelMatcher> matchers, long minTime, long maxTime, String tier,
      boolean latest, String steps) {
    ModifiableSolrParams params = new ModifiableSolrParams();
    params.set("q", "start:" + minTime + " AND end:" + maxTime);
    params.set("chronix.match", selector(matchers));
    params.set("cj", "*");
    params.set("fl", "*,+data");
    params.set("rows", maxSeries + 1);
    if (tier != null) {
      params.set(WINDOWS_PARAM, tier);
    }
    if (latest) {
      params.set(LATEST_PARAM, true);
    }
    if (steps != null) {
      params.set(STEPS_PARAM, steps);
    }
    return params;
  }

  /** A series' points: as the plugin gave them to a query in the process, else decoded from the blob; null when none. */
  private static Points points(Object data, List<LabelMatcher> matchers) {
    if (data instanceof Points points) {
      return points;
    }
    if (!(data instanceof byte[] blob)) {
      return null;
    }
    try {
      return ChunkCodec.decode(blob);
    } catch (CorruptBlobException e) {
      throw new PromQlException(PromQlException.Type.INTERNAL, "a series of " + selector(matchers)
          + " could not be decoded: " + e.getMessage(), e);
    }
  }

  private static BucketStats windows(byte[] blob, List<LabelMatcher> matchers) {
    try {
      return RollupBlob.decode(blob).windows();
    } catch (CorruptBlobException e) {
      throw new PromQlException(PromQlException.Type.INTERNAL, "the windows of a series of " + selector(matchers)
          + " could not be decoded: " + e.getMessage(), e);
    }
  }

  /**
   * Series equal but for their value type or origin show as one, as their labels are equal. The
   * parts are this answer's own (decoded for it, InProcessQuery), so the milliseconds go into their arrays.
   */
  private static RawSeries joined(Labels labels, List<Points> parts) {
    return RawSeries.fromNanosInPlace(labels, parts.size() == 1 ? parts.get(0) : SeriesMerge.merge(parts));
  }

  /**
   * Runs a series query on the Chronix handler, in this thread where the node is embedded (no
   * javabin copy of the answer), with Solr's errors as PromQL errors.
   */
  static SolrDocumentList search(SolrClient solr, String collection, ModifiableSolrParams params) {
    return solr instanceof EmbeddedSolrServer embedded
        ? InProcessSearch.query(embedded, collection, QUERY_HANDLER, params) : query(solr, collection, params);
  }

  /** Runs a series query on the Chronix handler through SolrJ, with Solr's errors as PromQL errors. */
  private static SolrDocumentList query(SolrClient solr, String collection, ModifiableSolrParams params) {
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
