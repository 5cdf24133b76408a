package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Random;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.apache.solr.request.LocalSolrQueryRequest;
import org.apache.solr.search.QParser;
import org.junit.jupiter.api.Test;

/**
 * The one-pass reader against Solr's own parser on the project's schema: every query it takes must
 * come out as the very query Solr builds from {@link TimeRangeQuery}'s rewritten text, and
 * everything else must be left to Solr.
 */
class PlainConjunctionTest extends OnTestCore {

  private static final Date NOW = Date.from(Instant.parse("2026-11-22T12:00:00Z"));

  @Test
  void plainQueriesComeOutAsSolrBuildsThem() throws Exception {
    for (String q : List.of(
        "name:cpu",
        "*:*",
        "name:\"java.lang:type=Threading/CurrentThreadCpuTime/\" AND host:\"pre-int\" AND process:\"base\""
            + " AND start:1439300000000 AND end:1439500000000",
        "start:1000 AND end:2000",
        "  name:cpu   AND\thost:web-1  ",
        "name:\"a b (c) [d] {e} * ? ~ ^ : / + - ! AND OR\" AND start:\"NOW/DAY\"",
        "start:NOW-1DAY AND name:load.1",
        "end:2015-08-12T17:25:41.389Z",
        "*:* AND start:5",
        "name:cpu AND customLabel:x1 AND host_name:\"\"",
        "id:abc AND type:metric",
        "name:\"\\\\CPU\\\\hi\" AND host:\"pre-int\" AND start:5",
        "name:\"a\\\"b\" AND host:\"\\\\\"",
        "name:\"say \\\"AND\\\"\" AND end:9")) {
      assertSameAsSolr(q);
    }
  }

  @Test
  void randomConjunctionsComeOutAsSolrBuildsThem() throws Exception {
    Random random = new Random(20261126);
    String[] fields = {"name", "host", "process", "group", "metric", "type", "id", "my_label"};
    String valueChars = "abcXYZ019_.-:/=,;@#%&|!()[]{}*?~^+ ";
    String escapedChars = "\\\"a: *?"; // escaped in quotes: kept as they are
    for (int round = 0; round < 500; round++) {
      List<String> terms = new ArrayList<>();
      for (int i = random.nextInt(4); i >= 0; i--) {
        StringBuilder value = new StringBuilder();
        for (int j = 1 + random.nextInt(12); j > 0; j--) {
          if (random.nextInt(8) == 0) {
            value.append('\\').append(escapedChars.charAt(random.nextInt(escapedChars.length())));
          } else {
            value.append(valueChars.charAt(random.nextInt(valueChars.length())));
          }
        }
        String field = fields[random.nextInt(fields.length)];
        terms.add(random.nextBoolean() ? field + ":\"" + value + "\"" : field + ":v" + random.nextInt(1000) + ".x-y");
      }
      long from = random.nextInt(1_000_000);
      if (random.nextBoolean()) {
        terms.add(random.nextInt(terms.size() + 1), "start:" + from);
      }
      if (random.nextBoolean()) {
        terms.add(random.nextInt(terms.size() + 1), "end:" + (from + random.nextInt(1_000_000)));
      }
      assertSameAsSolr(String.join(random.nextBoolean() ? " AND " : "  AND\n ", terms));
    }
  }

  @Test
  void everythingElseIsLeftToSolr() throws Exception {
    for (String q : List.of(
        "", "   ", "name:cpu OR name:mem", "(name:cpu AND host:a)", "name:cpu && host:a", "-name:cpu",
        "+name:cpu", "NOT name:cpu", "name:cpu*", "name:c?u", "name:cpu~", "name:\"cpu\"~2", "name:cpu^2",
        "name:\"a\\u0041b\"", "name:\"a\\\"", "name:a\\:b", "count:5", "min:1.5", "start:[0 TO 5]", "end:{0 TO 5}",
        "_query_:\"{!lucene}name:cpu\"", "{!lucene}name:cpu", "name:cpu AND", "name:cpu AND ", "AND name:cpu",
        "name:cpu host:a", "name:AND", "name:TO", "host:restart:1", "name:\"unclosed", "name:cpu AND start:(5)",
        "name:", ":cpu", "name:cpu)", "nosuch.field:x", "name:-cpu", "start:5 AND end:6 OR name:x")) {
      assertNull(PlainConjunction.parse(q, NOW, core.getLatestSchema(), parser(q)), q);
    }
  }

  @Test
  void badRangesAreTheSameClientErrorsAsTheRewriter() throws Exception {
    for (String q : List.of("start:yesterday AND name:cpu", "name:cpu AND start:5 AND end:4", "start:5 AND start:6",
        "end:1 AND name:x AND end:2")) {
      SolrException plain = assertThrows(SolrException.class,
          () -> PlainConjunction.parse(q, NOW, core.getLatestSchema(), parser(q)), q);
      SolrException rewriter = assertThrows(SolrException.class, () -> TimeRangeQuery.parse(q, NOW), q);
      assertEquals(400, plain.code(), q);
      assertEquals(rewriter.getMessage(), plain.getMessage(), q);
    }
  }

  @Test
  void localParametersNamingAnotherParserAreHonoured() throws Exception {
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      RecordSelection selection = RecordSelection.parse("{!field f=name}cpu AND start:5", NOW, request);
      assertEquals(new TermQuery(new Term("name", "cpu AND end:[5 TO *]")), selection.query());
      assertEquals(new TimeRange(5, Long.MAX_VALUE), selection.range());
    }
  }

  /**
   * Filters of string terms, some excluded, come out as Solr's parser builds them, through the
   * request's selection too; start:, end:, a minus before anything but a field, and the rest are
   * left to Solr.
   */
  @Test
  void plainFiltersComeOutAsSolrBuildsThem() throws Exception {
    Random random = new Random(20261129);
    List<String> filters = new ArrayList<>(List.of("-type:string", "type:metric", " -type:string ",
        "name:cpu AND -host:\"web 1\"", "-name:cpu AND -host:a", "-name:\"a\\\"b\" AND type:metric"));
    String[] fields = {"name", "host", "type", "my_label"};
    for (int round = 0; round < 200; round++) {
      List<String> terms = new ArrayList<>();
      for (int i = random.nextInt(3); i >= 0; i--) {
        String field = fields[random.nextInt(fields.length)];
        terms.add((random.nextBoolean() ? "-" : "") + field + (random.nextBoolean() ? ":\"v " + round + "\"" : ":v" + i));
      }
      filters.add(String.join(" AND ", terms));
    }
    for (String fq : filters) {
      Query plain = PlainConjunction.filter(fq, core.getLatestSchema(), parser("*:*"));
      assertNotNull(plain, () -> "not read as plain terms: " + fq);
      assertEquals(parser(fq).getQuery(), plain, fq);
      try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
        assertEquals(parser(fq).getQuery(), RecordSelection.filter(fq, request, parser("*:*")), fq);
      }
    }
    for (String fq : List.of("start:5", "end:6", "-start:5", "name:cpu AND end:6", "- name:cpu", "--name:cpu",
        "-(name:cpu)", "name:cpu OR -host:a", "-*:*", "*:*", "-count:5", "{!ANALYZE detect=trend}", "name:cpu AND -",
        "-name:-cpu", "")) {
      assertNull(PlainConjunction.filter(fq, core.getLatestSchema(), parser("*:*")), fq);
    }
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      assertEquals(parser("-start:5 AND name:x").getQuery(), RecordSelection.filter("-start:5 AND name:x", request,
          parser("*:*")), "a filter left to Solr's parser");
    }
  }

  /** A series' terms read again are the instances read before; the kept terms stay bounded. */
  @Test
  void termsReadAgainAreTheSameInstances() throws Exception {
    String q = "name:\"cpu.load\" AND host:web-7 AND start:1000 AND end:2000";
    Query first = PlainConjunction.parse(q, NOW, core.getLatestSchema(), parser(q)).query();
    Query again = PlainConjunction.parse(q.replace("1000", "1500"), NOW, core.getLatestSchema(), parser(q)).query();
    List<org.apache.lucene.search.BooleanClause> firstClauses = ((org.apache.lucene.search.BooleanQuery) standard(first)).clauses();
    List<org.apache.lucene.search.BooleanClause> againClauses = ((org.apache.lucene.search.BooleanQuery) standard(again)).clauses();
    assertSame(firstClauses.get(0).getQuery(), againClauses.get(0).getQuery(), "name");
    assertSame(firstClauses.get(1).getQuery(), againClauses.get(1).getQuery(), "host");
    assertEquals(new TermQuery(new Term("host", "web-7")), againClauses.get(1).getQuery());
    for (int i = 0; i < 3 * PlainConjunction.MAX_TERMS; i++) {
      PlainConjunction.term("host", "h" + i);
      assertTrue(PlainConjunction.keptTerms() <= PlainConjunction.MAX_TERMS, PlainConjunction.keptTerms() + " kept");
    }
  }

  private static void assertSameAsSolr(String q) throws Exception {
    PlainConjunction plain = PlainConjunction.parse(q, NOW, core.getLatestSchema(), parser(q));
    assertNotNull(plain, () -> "not read as a plain conjunction: " + q);
    TimeRangeQuery rewritten = TimeRangeQuery.parse(q, NOW);
    Query solr = parser(rewritten.query()).getQuery();
    assertEquals(solr, standard(plain.query()), q);
    if (plain.query() instanceof PlainConjunctionQuery lazy) {
      assertEquals(solr, lazy.rewrite((org.apache.lucene.search.IndexSearcher) null), q + ": rewritten");
      assertEquals(lazy, PlainConjunction.parse(q, NOW, core.getLatestSchema(), parser(q)).query(), q + ": equals");
      assertEquals(lazy.hashCode(), PlainConjunction.parse(q, NOW, core.getLatestSchema(), parser(q)).query().hashCode());
      assertEquals(solr.toString(), lazy.toString(), q + ": text");
    } else {
      assertTrue(!rewritten.bounded(), q + ": bounded, and read into Solr's query at once");
    }
    assertEquals(rewritten.range(), plain.timeRange().range(), q);
    assertEquals(rewritten.bounded(), plain.timeRange().bounded(), q);
    assertEquals(solr, parser(plain.timeRange().query()).getQuery(), () -> "text " + plain.timeRange().query());
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      assertEquals(solr, standard(RecordSelection.parse(q, NOW, request).query()), q);
    }
  }

  /** The query as Solr builds it: a lazy conjunction's standard form, any other as it is. */
  private static Query standard(Query query) {
    return query instanceof PlainConjunctionQuery lazy ? lazy.standard() : query;
  }

  /** Two windows of one series differ only in their bounds: equal and unequal where they should be. */
  @Test
  void conjunctionsOfOtherBoundsOrTermsDiffer() throws Exception {
    String q = "name:cpu AND host:a AND start:1000 AND end:2000";
    Query query = PlainConjunction.parse(q, NOW, core.getLatestSchema(), parser(q)).query();
    for (String other : List.of("name:cpu AND host:a AND start:1001 AND end:2000", "name:cpu AND host:b AND start:1000 AND end:2000",
        "name:cpu AND host:a AND start:1000")) {
      Query differs = PlainConjunction.parse(other, NOW, core.getLatestSchema(), parser(other)).query();
      assertTrue(!query.equals(differs), other);
      assertTrue(!standard(query).equals(standard(differs)), other + " (as Solr builds them)");
    }
  }

  private static QParser parser(String q) throws Exception {
    return QParser.getParser(q, new LocalSolrQueryRequest(core, new ModifiableSolrParams()));
  }
}
