package io.chronix.solr.analyze;

import io.chronix.analysis.FunctionQuery;
import io.chronix.solr.query.KeptByKey;

/**
 * The {@code cf} parameters read before, kept by their text: a dashboard sends the same few with
 * every refresh, and reading one (its blocks, each function and its arguments) was 1-3 % of the CPU
 * of a one-hour {@code max} (perf, docs/benchmarks.md). A {@link FunctionQuery} and its functions
 * are immutable, so one read serves every request. A text that does not read is not kept: its error
 * is thrown again each time.
 */
public final class ParsedFunctions {

  /** Texts kept at most; a flood of distinct ones starts the set again rather than grow it. */
  static final int MAX_KEPT = 1024;

  private static final KeptByKey<String, FunctionQuery> KEPT = new KeptByKey<>(MAX_KEPT);

  private ParsedFunctions() {}

  /**
   * @throws io.chronix.analysis.FunctionQueryException as {@link FunctionQuery#parse}
   */
  public static FunctionQuery of(String cf) {
    FunctionQuery kept = KEPT.get(cf);
    if (kept != null) {
      return kept;
    }
    return KEPT.keep(cf, FunctionQuery.parse(cf));
  }

  /** How many texts are kept now. */
  static int kept() {
    return KEPT.size();
  }
}
