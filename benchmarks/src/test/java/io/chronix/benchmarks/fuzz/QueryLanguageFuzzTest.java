package io.chronix.benchmarks.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.chronix.analysis.FunctionQuery;
import io.chronix.analysis.FunctionQueryException;
import io.chronix.analysis.promql.engine.PromQlException;
import io.chronix.analysis.promql.parser.ParseException;
import io.chronix.analysis.promql.parser.PromQlParser;
import io.chronix.ingest.promql.ApiParameters;
import io.chronix.solr.query.TimeRangeQuery;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import org.apache.solr.common.SolrException;

/**
 * What users type: the {@code cf=} function syntax, PromQL, the {@code start:}/{@code end:} time
 * terms of a Chronix query and the times and durations of the Prometheus API. Each may only refuse
 * with its own 400 error, saying what is wrong.
 */
class QueryLanguageFuzzTest {

  private static final Date NOW = new Date(1_700_000_000_000L);

  private static String text(byte[] data) {
    return new String(data, StandardCharsets.UTF_8);
  }

  @FuzzTest
  void functionSyntax(byte[] data) {
    try {
      FunctionQuery.parse(text(data));
    } catch (FunctionQueryException refused) {
      Findings.explained(refused);
    }
  }

  @FuzzTest
  void promQl(byte[] data) {
    try {
      PromQlParser.parse(text(data)).toString();
    } catch (ParseException refused) {
      Findings.explained(refused); // the API answers it as bad_data with its position
    }
  }

  @FuzzTest
  void timeTerms(byte[] data) {
    try {
      TimeRangeQuery.parse(text(data), NOW);
    } catch (SolrException refused) {
      Findings.explained(refused);
      Findings.check(refused.code() == 400, "a bad time term is a 400, got " + refused.code());
    }
  }

  @FuzzTest
  void apiTimesAndDurations(byte[] data) {
    String text = text(data);
    try {
      ApiParameters.time("time", text);
    } catch (PromQlException refused) {
      Findings.explained(refused);
    }
    try {
      ApiParameters.duration("step", text);
    } catch (PromQlException refused) {
      Findings.explained(refused);
    }
  }
}
