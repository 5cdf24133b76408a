package io.chronix.solr.analyze;

import io.chronix.analysis.Analysis;
import io.chronix.analysis.AnalysisResult;
import io.chronix.analysis.ChronixFunction;
import io.chronix.analysis.EvaluatedSeries;
import io.chronix.analysis.FunctionEvaluator;
import io.chronix.analysis.FunctionQuery;
import io.chronix.analysis.FunctionQueryException;
import io.chronix.analysis.FunctionValue;
import io.chronix.analysis.References;
import io.chronix.solr.query.JoinedSeries;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.solr.common.SolrException;

/**
 * Runs a query's functions on joined series: ANALYZE filters decide on the joined series whether
 * it is kept; then the {@code cf} functions of the series' type run (transformations first).
 */
public final class SeriesEvaluator {

  private final FunctionQuery functions;
  private final List<Analysis> filters;
  private final References references;

  public SeriesEvaluator(FunctionQuery functions, List<Analysis> filters, References references) {
    this.functions = functions;
    this.filters = filters;
    this.references = references;
  }

  /** The evaluated series, or empty when an ANALYZE filter rejects it. */
  public Optional<EvaluatedSeries> evaluate(JoinedSeries series) {
    if (series.summary() != null) {
      return Optional.of(new EvaluatedSeries(series.points(),
          SummaryAggregations.values(series.summary(), functions.functionsFor(series.fields().type()))));
    }
    try {
      for (Analysis filter : filters) {
        FunctionEvaluator.requireAnalysable(series.points().type(), filter.name());
        AnalysisResult result = filter.apply(series.points(), references);
        if (!result.matches()) {
          return Optional.empty();
        }
      }
      if (functions.isEmpty()) {
        return Optional.of(new EvaluatedSeries(series.points(), List.of()));
      }
      List<ChronixFunction> typed = functions.functionsFor(series.fields().type());
      if (series.downsampled() && !typed.isEmpty()) {
        typed = typed.subList(1, typed.size()); // the downsample was answered from a rollup tier
      }
      return Optional.of(FunctionEvaluator.evaluate(series.points(), typed, references));
    } catch (FunctionQueryException e) {
      throw new SolrException(SolrException.ErrorCode.BAD_REQUEST, e.getMessage(), e);
    }
  }

  /** All queries whose series the analyses compare against. */
  public List<String> referenceQueries() {
    List<String> queries = new ArrayList<>(functions.referenceQueries());
    for (Analysis filter : filters) {
      queries.addAll(filter.referenceQueries());
    }
    return queries;
  }

  /** Function results as response entries: name, arguments, then value or matches and details. */
  public static List<Object> render(List<FunctionValue> values) {
    List<Object> rendered = new ArrayList<>(values.size());
    for (FunctionValue value : values) {
      org.apache.solr.common.util.SimpleOrderedMap<Object> entry = new org.apache.solr.common.util.SimpleOrderedMap<>();
      entry.add("name", value.name());
      entry.add("arguments", value.arguments());
      if (value.value() != null) {
        entry.add("value", value.value());
      }
      if (value.elements() != null) {
        entry.add("value", value.elements());
      }
      if (value.matches() != null) {
        entry.add("matches", value.matches());
        value.details().forEach(entry::add);
      }
      rendered.add(entry);
    }
    return rendered;
  }
}
