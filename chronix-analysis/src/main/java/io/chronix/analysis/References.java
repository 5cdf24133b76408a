package io.chronix.analysis;

import io.chronix.core.series.Points;

/**
 * Looks up the series an analysis compares against. Kept abstract so that the analysis module
 * does not need to know how the Solr plugin runs the reference query.
 */
@FunctionalInterface
public interface References {

  /**
   * Returns the joined reference series of the query.
   *
   * @throws FunctionQueryException if the query matches nothing
   */
  Points resolve(String query);

  /** For evaluations without analyses that need references: any lookup is a query error. */
  static References none() {
    return query -> {
      throw new FunctionQueryException("no reference series available for query '" + query + "'");
    };
  }
}
