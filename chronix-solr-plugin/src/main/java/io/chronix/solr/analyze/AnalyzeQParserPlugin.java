package io.chronix.solr.analyze;

import io.chronix.analysis.Analysis;
import io.chronix.analysis.ChronixFunction;
import io.chronix.analysis.FunctionQueryException;
import io.chronix.analysis.Functions;
import org.apache.lucene.search.Query;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.params.SolrParams;
import org.apache.solr.request.SolrQueryRequest;
import org.apache.solr.search.QParser;
import org.apache.solr.search.QParserPlugin;

/**
 * {@code fq={!ANALYZE detect=trend}}, the filter syntax of the Chronix paper: keeps the series
 * for which the analysis holds. Any analysis with its arguments may follow {@code detect=}, e.g.
 * {@code {!ANALYZE detect=frequency:10,6}} or {@code {!ANALYZE detect='sax:*ab*,10,4,0.01'}}.
 */
public class AnalyzeQParserPlugin extends QParserPlugin {

  public static final String NAME = "ANALYZE";

  @Override
  public QParser createParser(String qstr, SolrParams localParams, SolrParams params, SolrQueryRequest req) {
    return new QParser(qstr, localParams, params, req) {
      @Override
      public Query parse() {
        String detect = localParams == null ? null : localParams.get("detect");
        if (detect == null || detect.isBlank()) {
          throw new SolrException(SolrException.ErrorCode.BAD_REQUEST,
              "{!ANALYZE} needs detect=<analysis>, e.g. {!ANALYZE detect=trend}");
        }
        ChronixFunction function;
        try {
          function = Functions.parse(detect);
        } catch (FunctionQueryException e) {
          throw new SolrException(SolrException.ErrorCode.BAD_REQUEST, "{!ANALYZE detect=" + detect + "}: " + e.getMessage());
        }
        if (!(function instanceof Analysis)) {
          throw new SolrException(SolrException.ErrorCode.BAD_REQUEST,
              "{!ANALYZE detect=" + detect + "}: '" + function.name() + "' is not an analysis");
        }
        return new AnalyzeQuery((Analysis) function, detect);
      }
    };
  }
}
