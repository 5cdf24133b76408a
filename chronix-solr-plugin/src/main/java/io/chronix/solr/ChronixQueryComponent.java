package io.chronix.solr;

import io.chronix.analysis.Analysis;
import io.chronix.analysis.EvaluatedSeries;
import io.chronix.analysis.FunctionQuery;
import io.chronix.analysis.FunctionQueryException;
import io.chronix.analysis.transformation.Downsample;
import io.chronix.core.live.InProcessQuery;
import io.chronix.core.live.InProcessSeries;
import io.chronix.core.series.Points;
import io.chronix.core.series.Precision;
import io.chronix.solr.analyze.AnalyzeQuery;
import io.chronix.solr.analyze.LocalReferences;
import io.chronix.solr.analyze.ParsedFunctions;
import io.chronix.solr.analyze.SeriesEvaluator;
import io.chronix.solr.analyze.SummaryAggregations;
import io.chronix.solr.distributed.ShardMerge;
import io.chronix.solr.distributed.ShardParams;
import io.chronix.solr.distributed.ShardSignature;
import io.chronix.core.budget.PointBudget;
import io.chronix.core.record.RecordFields;
import io.chronix.solr.query.DecodeShare;
import io.chronix.solr.query.DecodedPointsLimit;
import io.chronix.solr.query.FieldValues;
import io.chronix.solr.query.JoinFields;
import io.chronix.solr.query.JoinedSeries;
import io.chronix.solr.query.RecordCache;
import io.chronix.solr.query.RecordCacheSize;
import io.chronix.solr.query.RecordSelection;
import io.chronix.solr.query.StepPoints;
import io.chronix.solr.query.SeriesCollector;
import io.chronix.solr.query.SeriesQuery;
import io.chronix.solr.query.TimeRange;
import io.chronix.solr.response.FieldList;
import io.chronix.solr.response.RawJsonFields;
import io.chronix.solr.response.SeriesDocuments;
import io.chronix.solr.rollup.RollupPlan;
import io.chronix.solr.rollup.RollupSource;
import io.chronix.solr.selector.SelectorQuery;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
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
import org.apache.solr.handler.component.ShardRequest;
import org.apache.solr.request.SolrRequestInfo;
import org.apache.solr.search.QParser;
import org.apache.solr.search.SyntaxError;

/**
 * Answers Chronix series queries (docs/query.md): {@code q} with {@code start:}/{@code end:}
 * selects records, records are joined per {@code cj} key, clipped, and the {@code cf} functions
 * and {@code {!ANALYZE}} filters run next to the data. On a sharded collection each shard does
 * this for its records and the coordinator merges (see {@link ShardMerge}).
 */
public class ChronixQueryComponent extends SearchComponent {

  /** Request parameter: unit of returned timestamps (ns, us, ms, s); ms by default. */
  public static final String PRECISION = "precision";
  /** Request parameter: the Chronix function query, e.g. {@code metric{max;p:0.99;trend}}. */
  public static final String FUNCTIONS = "cf";
  /**
   * Request parameter: PromQL series selectors ({@code up{job="api"}}); records of any of them
   * (docs/promql.md). Several values select the union, as Prometheus' {@code match[]}.
   */
  public static final String MATCH = "chronix.match";
  /**
   * Request parameter: answer the series (their fields) without reading any points; a series is
   * there when one of its records overlaps the time range. For series and label listings.
   */
  public static final String KEYS_ONLY = "chronix.keys";
  /**
   * Request parameter naming a series field (name, type or an attribute): the answer is the
   * field's distinct values among the matching records and buffered series ({@code fieldValues},
   * sorted), no series. For PromQL's label values. One core's answer: not on a sharded collection.
   */
  public static final String FIELD_VALUES = "chronix.fieldValues";
  /**
   * Request parameter: with {@code true} the answer is the series fields having a value among the
   * matching records and buffered series ({@code fieldNames}, sorted), no series. For PromQL's
   * label names. One core's answer: not on a sharded collection.
   */
  public static final String FIELD_NAMES = "chronix.fieldNames";
  /**
   * Request parameter: with {@code true} the answer is the distinct series among the matching
   * records and buffered series as their fields ({@code seriesFields}: name, type and attributes,
   * one value each; in no particular order), no points. For PromQL's series listing. One core's
   * answer: not on a sharded collection.
   */
  public static final String SERIES_FIELDS = "chronix.seriesFields";
  /**
   * Request parameter: with {@code true} each series comes with its latest point in the time range
   * where the records tell it without being joined (their statistics, the records reaching past the
   * range decoded as far as it), to the millisecond; else joined and clipped as without it: more
   * points, never other ones. What an instant PromQL selector needs. Not with functions or
   * analyses; a sharded collection answers whole series.
   */
  public static final String LATEST = "chronix.latest";
  /**
   * Request parameter {@code <first>,<step>} (epoch milliseconds, milliseconds): each series only
   * with its latest point at or before each step time from the first to the range's end
   * ({@link StepPoints}), what a PromQL instant selector reads at a range query's steps. Not with
   * functions or analyses; a sharded collection answers whole series.
   */
  public static final String STEPS = "chronix.steps";
  /** Request parameter: {@code false} answers a downsample from the records even where a rollup tier could. */
  public static final String ROLLUPS = "chronix.rollups";
  /**
   * Request parameter naming a rollup tier: each series comes as its PromQL windows in that tier
   * where they answer exactly, else as its points (the PromQL source's range queries, {@code
   * SeriesCollector#collectWindows}); functions are not run.
   */
  public static final String WINDOWS = "chronix.windows";
  /** Response header entry naming the rollup tier that answered (some of) the series. */
  public static final String ROLLUP_HEADER = "chronixRollup";
  /** Response header entry echoing the parsed time range. */
  public static final String RANGE_HEADER = "chronixRange";

  private static final String QUERY_CONTEXT = ChronixQueryComponent.class.getName() + ".query";

  private long maxDecodedPoints = DecodedPointsLimit.auto();
  /** What this core's queries decode at once, within the same limit as one query. */
  private PointBudget budget = new PointBudget(maxDecodedPoints);
  private RecordCache records = RecordCache.shared(RecordCacheSize.auto());

  @Override
  public void init(NamedList<?> args) {
    super.init(args);
    Object limit = args.get("maxDecodedPoints");
    if (limit != null) {
      try {
        maxDecodedPoints = DecodedPointsLimit.parse(limit.toString());
        budget = new PointBudget(maxDecodedPoints);
      } catch (IllegalArgumentException e) {
        throw new SolrException(SolrException.ErrorCode.SERVER_ERROR, "chronix search component: " + e.getMessage());
      }
    }
    Object cacheMb = args.get("recordCacheMB");
    if (cacheMb != null) {
      try {
        records = RecordCache.shared(RecordCacheSize.parse(cacheMb.toString()));
      } catch (IllegalArgumentException e) {
        throw new SolrException(SolrException.ErrorCode.SERVER_ERROR, "chronix search component: " + e.getMessage());
      }
    }
  }

  @Override
  public void prepare(ResponseBuilder rb) throws IOException {
    SolrParams params = rb.req.getParams();
    ShardSignature.verify(params, rb.req.getCore().getCoreContainer());
    Date now = SolrRequestInfo.getRequestInfo() != null ? SolrRequestInfo.getRequestInfo().getNOW() : new Date();
    List<Analysis> analyses = new ArrayList<>();
    TimeRange range;
    try {
      RecordSelection selection = RecordSelection.parse(RecordSelection.of(rb.req), now, rb.req);
      range = selection.range();
      if (selection.timeRange().bounded()) {
        SimpleOrderedMap<Object> echo = new SimpleOrderedMap<>();
        echo.add("start", range.fromMillis());
        echo.add("end", range.toMillis());
        rb.rsp.getResponseHeader().add(RANGE_HEADER, echo);
      }
      QParser parser = selection.parser();
      rb.setQparser(parser);
      rb.setQuery(selection.query());
      List<Query> filters = new ArrayList<>();
      String[] filterQueries = params.getParams(CommonParams.FQ);
      if (filterQueries != null) {
        for (String fq : filterQueries) {
          if (fq == null || fq.isBlank()) {
            continue;
          }
          Query filter = RecordSelection.filter(fq, rb.req, parser);
          if (filter instanceof AnalyzeQuery) {
            analyses.add(((AnalyzeQuery) filter).analysis());
          } else {
            filters.add(filter);
          }
        }
      }
      String[] selectors = params.getParams(MATCH);
      if (selectors != null && selectors.length > 0) {
        filters.add(selectorFilter(selectors, parser));
      }
      rb.setFilters(filters);
    } catch (SyntaxError e) {
      throw new SolrException(SolrException.ErrorCode.BAD_REQUEST, "cannot parse query: " + e.getMessage(), e);
    }
    FunctionQuery functions;
    try {
      functions = ParsedFunctions.of(params.get(FUNCTIONS, ""));
    } catch (FunctionQueryException e) {
      throw new SolrException(SolrException.ErrorCode.BAD_REQUEST, FUNCTIONS + ": " + e.getMessage(), e);
    }
    Precision precision;
    try {
      precision = Precision.parse(params.get(PRECISION, "ms"));
    } catch (IllegalArgumentException e) {
      throw new SolrException(SolrException.ErrorCode.BAD_REQUEST, PRECISION + ": " + e.getMessage());
    }
    boolean keysOnly = params.getBool(KEYS_ONLY, false);
    if (keysOnly && (!functions.isEmpty() || !analyses.isEmpty())) {
      throw new SolrException(SolrException.ErrorCode.BAD_REQUEST, KEYS_ONLY + " reads no points, so it takes no functions");
    }
    FieldList fields = FieldList.parse(params.getParams(CommonParams.FL));
    if (Boolean.TRUE.equals(rb.req.getContext().get(InProcessQuery.POINTS))) {
      fields = fields.inProcess();
    }
    rb.req.getContext().put(QUERY_CONTEXT, new SeriesQuery(range, JoinFields.parse(params.get(JoinFields.PARAM)),
        functions, analyses, fields, precision, now, keysOnly));
  }

  private static Query selectorFilter(String[] selectors, QParser parser) {
    if (selectors.length == 1) {
      return SelectorQuery.parse(selectors[0], parser);
    }
    BooleanQuery.Builder union = new BooleanQuery.Builder();
    for (String selector : selectors) {
      union.add(SelectorQuery.parse(selector, parser), BooleanClause.Occur.SHOULD);
    }
    return union.build();
  }

  public static SeriesQuery seriesQuery(ResponseBuilder rb) {
    return (SeriesQuery) rb.req.getContext().get(QUERY_CONTEXT);
  }

  @Override
  public void process(ResponseBuilder rb) throws IOException {
    SeriesQuery query = seriesQuery(rb);
    SolrParams params = rb.req.getParams();
    List<Query> queries = new ArrayList<>();
    queries.add(rb.getQuery());
    if (rb.getFilters() != null) {
      queries.addAll(rb.getFilters());
    }
    // series answered as objects are ordered by their reader; others in join-key order (below)
    SeriesCollector collector = objectsWanted(rb, query) ? collector().inAnyOrder() : collector();
    if (params.getBool(ShardParams.PARTIAL, false)) {
      // a coordinator's join: each record's points with its write order, merged there
      rb.rsp.addResponse(ShardMerge.partialDocuments(collector.collectParts(rb.req.getSearcher(), queries,
          query.range(), query.join())));
      return;
    }
    String valuesOf = params.get(FIELD_VALUES);
    if (valuesOf != null) {
      if (!RecordFields.isSeriesField(valuesOf)) {
        throw new SolrException(SolrException.ErrorCode.BAD_REQUEST,
            FIELD_VALUES + ": '" + valuesOf + "' is a record field, not a series field (use name, type or attributes)");
      }
      rb.rsp.add("fieldValues", new ArrayList<>(FieldValues.of(rb.req.getSearcher(), queries, query.range(), valuesOf)));
      return;
    }
    if (params.getBool(FIELD_NAMES, false)) {
      rb.rsp.add("fieldNames", new ArrayList<>(FieldValues.names(rb.req.getSearcher(), queries, query.range())));
      return;
    }
    if (params.getBool(SERIES_FIELDS, false)) {
      rb.rsp.add("seriesFields", new ArrayList<>(FieldValues.series(rb.req.getSearcher(), queries, query.range())));
      return;
    }
    String windowsTier = params.get(WINDOWS);
    if (windowsTier != null) {
      rb.rsp.addResponse(windows(rb, query, queries, windowsTier, collector));
      return;
    }
    if (params.getBool(LATEST, false)) {
      requirePointsOnly(LATEST, query);
      List<JoinedSeries> latest = collector.collectLatest(rb.req.getSearcher(), queries, query.range(), query.join());
      if (answeredAsObjects(rb, latest, query)) {
        return;
      }
      SeriesEvaluator none = new SeriesEvaluator(query.functions(), query.analyses(),
          new LocalReferences(rb.req, query.join(), collector, query.now(), Map.of()));
      rb.rsp.addResponse(respond(latest, none, query, params,
          params.getBool(org.apache.solr.common.params.ShardParams.IS_SHARD, false)));
      RawJsonFields.applyTo(rb, query.fields());
      return;
    }
    // aggregations over whole records come from their statistics
    boolean summarize = !query.keysOnly() && query.analyses().isEmpty() && !query.fields().anyPoints()
        && SummaryAggregations.answers(query.functions());
    List<JoinedSeries> series;
    // a downsample over a multiple of a rollup tier reads the tier where it answers exactly
    Downsample wanted = summarize || query.keysOnly() || !params.getBool(ROLLUPS, true) ? null
        : RollupPlan.wanted(query.functions(), !query.analyses().isEmpty());
    String stepsParam = params.get(STEPS);
    UnaryOperator<JoinedSeries> each = stepsParam == null ? UnaryOperator.identity() : atSteps(stepsParam, query);
    if (pagedBeforeDecoding(rb, query, wanted)) {
      int offset = Math.max(0, params.getInt(CommonParams.START, 0));
      int rows = Math.max(0, params.getInt(CommonParams.ROWS, Integer.MAX_VALUE));
      SeriesCollector.Page page = collector.collectPage(rb.req.getSearcher(), queries, query.range(), query.join(),
          summarize, each, offset, rows);
      SeriesEvaluator evaluator = new SeriesEvaluator(query.functions(), query.analyses(),
          new LocalReferences(rb.req, query.join(), collector, query.now(), ShardParams.references(params)));
      rb.rsp.addResponse(ShardMerge.page(render(page.series(), evaluator, query, false), page.total(), offset));
      RawJsonFields.applyTo(rb, query.fields());
      return;
    }
    try (RollupSource rollups = wanted == null ? null : RollupSource.of(rb.req.getCore())) {
      RollupPlan plan = rollups == null ? null : RollupPlan.of(wanted, rollups.tiers());
      series = collector.collect(rb.req.getSearcher(), queries, query.range(), query.join(), query.keysOnly(),
          summarize, plan, rollups, each);
      if (plan != null && series.stream().anyMatch(JoinedSeries::downsampled)) {
        rb.rsp.getResponseHeader().add(ROLLUP_HEADER, plan.tier());
      }
    }
    if (answeredAsObjects(rb, series, query)) {
      return;
    }
    Map<String, Points> given = ShardParams.references(params);
    SeriesEvaluator evaluator = new SeriesEvaluator(query.functions(), query.analyses(),
        new LocalReferences(rb.req, query.join(), collector, query.now(), given));
    boolean shard = params.getBool(org.apache.solr.common.params.ShardParams.IS_SHARD, false);
    rb.rsp.addResponse(respond(series, evaluator, query, params, shard));
    RawJsonFields.applyTo(rb, query.fields());
  }

  /**
   * Answers the series as objects to a caller in the process that asked for them ({@link
   * InProcessQuery#SERIES}), where the query answers points only; false where it does not.
   */
  private static boolean answeredAsObjects(ResponseBuilder rb, List<JoinedSeries> series, SeriesQuery query) {
    if (!objectsWanted(rb, query)) {
      return false;
    }
    if (series.stream().anyMatch(joined -> joined.summary() != null || joined.points() == null)) {
      JoinedSeries.sort(series); // collected in any order for the objects: documents are paged in order
      return false;
    }
    List<InProcessSeries> answer = new ArrayList<>(series.size());
    for (JoinedSeries joined : series) {
      answer.add(new InProcessSeries(joined.fields().view(), joined.points(), joined::sortKey));
    }
    rb.rsp.add(InProcessQuery.SERIES, answer);
    return true;
  }

  /**
   * Whether a caller in the process asked for the series as objects, and the query answers them as
   * points: not a tier's windows, a shard's parts, keys only, functions or analyses.
   */
  private static boolean objectsWanted(ResponseBuilder rb, SeriesQuery query) {
    SolrParams params = rb.req.getParams();
    return Boolean.TRUE.equals(rb.req.getContext().get(InProcessQuery.SERIES)) && params.get(WINDOWS) == null
        && !params.getBool(ShardParams.PARTIAL, false) && !query.keysOnly() && !query.hasFunctions()
        && query.analyses().isEmpty();
  }

  /** A parameter that cuts the points a series answers (latest, steps) cannot go with what reads other things. */
  private static void requirePointsOnly(String param, SeriesQuery query) {
    if (query.keysOnly() || query.hasFunctions() || !query.analyses().isEmpty()) {
      throw new SolrException(SolrException.ErrorCode.BAD_REQUEST,
          param + " answers points: not with " + KEYS_ONLY + ", functions (cf) or analyses");
    }
  }

  /** Each series cut to the steps ({@link #STEPS}) as it is joined; bad steps are refused before anything is read. */
  private static UnaryOperator<JoinedSeries> atSteps(String stepsParam, SeriesQuery query) {
    requirePointsOnly(STEPS, query);
    StepPoints.Steps steps;
    try {
      steps = StepPoints.Steps.parse(stepsParam);
    } catch (IllegalArgumentException e) {
      throw new SolrException(SolrException.ErrorCode.BAD_REQUEST, STEPS + ": " + e.getMessage());
    }
    long lastMillis = query.range().toMillis();
    return joined -> StepPoints.of(joined, steps, lastMillis);
  }

  /** Series as PromQL windows of a tier where they answer exactly, else as points ({@link #WINDOWS}). */
  private static SolrDocumentList windows(ResponseBuilder rb, SeriesQuery query, List<Query> queries, String tierName,
      SeriesCollector collector) throws IOException {
    try (RollupSource rollups = RollupSource.of(rb.req.getCore())) {
      RollupPlan.Tier tier = null;
      for (RollupPlan.Tier present : rollups == null ? List.<RollupPlan.Tier>of() : rollups.tiers()) {
        tier = present.label().equals(tierName) ? present : tier;
      }
      List<SolrDocument> documents = new ArrayList<>();
      for (JoinedSeries joined : collector.collectWindows(rb.req.getSearcher(), queries, query.range(), query.join(),
          tier, rollups)) {
        documents.add(joined.windows() != null
            ? SeriesDocuments.renderWindows(joined.fields(), joined.windows(), query.fields())
            : SeriesDocuments.render(joined.fields(), joined.points(), List.of(), false, query.fields(),
                query.precision()));
      }
      return ShardMerge.page(documents, rb.req.getParams());
    }
  }

  /**
   * Whether the page a request asks for ({@code rows}) can be chosen before any series is decoded:
   * every series the query matches is answered (no analysis drops one), by this core alone, from
   * its records (no rollup tier), to a client rather than as objects.
   */
  private static boolean pagedBeforeDecoding(ResponseBuilder rb, SeriesQuery query, Downsample wanted) {
    SolrParams params = rb.req.getParams();
    return params.get(CommonParams.ROWS) != null && wanted == null && !query.keysOnly() && query.analyses().isEmpty()
        && !objectsWanted(rb, query) && !params.getBool(org.apache.solr.common.params.ShardParams.IS_SHARD, false);
  }

  /** Evaluates and renders joined series, paging unless this is a shard answering a coordinator. */
  public static SolrDocumentList respond(List<JoinedSeries> series, SeriesEvaluator evaluator, SeriesQuery query,
      SolrParams params, boolean shard) {
    List<SolrDocument> documents = render(series, evaluator, query, shard);
    return shard ? ShardMerge.all(documents) : ShardMerge.page(documents, params);
  }

  /** The joined series evaluated and rendered as documents (a shard's with their sort keys); those an analysis drops left out. */
  private static List<SolrDocument> render(List<JoinedSeries> series, SeriesEvaluator evaluator, SeriesQuery query,
      boolean shard) {
    List<SolrDocument> documents = new ArrayList<>(series.size());
    for (JoinedSeries joined : series) {
      Optional<EvaluatedSeries> evaluated = evaluator.evaluate(joined);
      if (evaluated.isEmpty()) {
        continue;
      }
      SolrDocument document = query.keysOnly()
          ? SeriesDocuments.renderFields(joined.fields(), query.fields())
          : joined.summary() != null
          ? SeriesDocuments.renderSummary(joined.fields(), joined.summary(), evaluated.get().values(), query.fields())
          : SeriesDocuments.render(joined.fields(), evaluated.get().points(), evaluated.get().values(),
              query.hasFunctions(), query.fields(), query.precision());
      if (shard) {
        document.setField(ShardParams.SORT_KEY, joined.sortKey());
      }
      documents.add(document);
    }
    return documents;
  }

  /**
   * A collector for this request, its points counted against the core's budget of points decoded
   * at once until the request ends (outside a request, against its own limit only).
   */
  SeriesCollector collector() {
    SolrRequestInfo request = SolrRequestInfo.getRequestInfo();
    if (request == null) {
      return new SeriesCollector(maxDecodedPoints, records);
    }
    DecodeShare share = DecodeShare.of(budget);
    request.addCloseHook(share);
    return new SeriesCollector(maxDecodedPoints, records, share);
  }

  @Override
  public int distributedProcess(ResponseBuilder rb) {
    SolrParams params = rb.req.getParams();
    if (params.get(FIELD_VALUES) != null || params.getBool(FIELD_NAMES, false) || params.getBool(SERIES_FIELDS, false)) {
      throw new SolrException(SolrException.ErrorCode.BAD_REQUEST, FIELD_VALUES + ", " + FIELD_NAMES + " and "
          + SERIES_FIELDS + " are answered by one core; on a sharded collection list the series (" + KEYS_ONLY
          + ") instead");
    }
    return ShardMerge.distributedProcess(this, rb, seriesQuery(rb));
  }

  @Override
  public void handleResponses(ResponseBuilder rb, ShardRequest sreq) {
    ShardMerge.handleResponses(rb, sreq);
  }

  @Override
  public void finishStage(ResponseBuilder rb) {
    ShardMerge.finishStage(rb, seriesQuery(rb));
  }

  @Override
  public String getDescription() {
    return "Chronix series query: time range, join of chunks per series, functions and analyses";
  }
}
