package io.chronix.solr.query;

import io.chronix.analysis.Analysis;
import io.chronix.analysis.FunctionQuery;
import io.chronix.core.series.Precision;
import io.chronix.solr.response.FieldList;
import java.util.Date;
import java.util.List;

/** A parsed series query: what to read, how to join it, what to compute and what to return. */
public record SeriesQuery(
    TimeRange range,
    JoinFields join,
    FunctionQuery functions,
    List<Analysis> analyses,
    FieldList fields,
    Precision precision,
    Date now,
    boolean keysOnly) {

  public boolean hasFunctions() {
    return !functions.isEmpty();
  }
}
