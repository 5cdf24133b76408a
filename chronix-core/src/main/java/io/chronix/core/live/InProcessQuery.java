package io.chronix.core.live;

/**
 * A series query run by a caller in the same process as the Solr core (the server's PromQL engine
 * on its embedded node): with {@link #POINTS} in the request's context, the query plugin answers
 * the {@code data} field as the decoded points themselves ({@code io.chronix.core.series.Points})
 * instead of an encoded blob. Through SolrJ the points were encoded by the plugin, copied through
 * javabin and decoded again by the engine: a third of a one-series PromQL query's time. A request
 * context entry, not a parameter, so that no request from outside can ask for objects that only
 * a caller in the process can read.
 *
 * <p>The points answered are the caller's: made for this answer (decoded, cut, joined, buffered
 * points copied) and shared with nothing that outlives the request, not the record cache, not the
 * buffers. The engine turns their timestamps into milliseconds in their own arrays (a cache of
 * decoded points behind this answer would need copies: PrometheusApiTest asks the same range twice).
 */
public final class InProcessQuery {

  /** The request context key (its value {@link Boolean#TRUE}). */
  public static final String POINTS = InProcessQuery.class.getName() + ".points";

  /**
   * With {@link #POINTS}: a query that answers points only (no functions, analyses or keys) answers
   * its series under the response key {@link #SERIES} as a list of {@link InProcessSeries}, whole
   * (not paged) and not rendered as documents. Rendering 10,000 series as documents for the engine
   * to read their labels back was a sixth of a {@code topk} over them.
   */
  public static final String SERIES = InProcessQuery.class.getName() + ".series";

  private InProcessQuery() {}
}
