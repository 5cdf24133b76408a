package io.chronix.ingest.solr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.params.SolrParams;
import org.apache.solr.servlet.SolrRequestParsers;
import org.junit.jupiter.api.Test;

/** Query strings read as Solr's request parsers read them, or left to those parsers. */
class QueryStringParamsTest {

  /** Pieces a query string is made of, the unusual among them: escapes good and bad, bytes over 127. */
  private static final List<String> PIECES = List.of("q", "fl", "cf", "json.nl", "x_y-1", "ie", "=", "&", "&&", "+",
      "%20", "%22", "%26", "%3D", "%2B", "%C3%A9", "%E2%82%AC", "%F0%9F%98%80", "%C3", "%FF", "%e2%82%ac", "%2", "%G1",
      "%", "%\u0661\u0662", "a", "Z", "0", ":", "\"", "*", "{", "}", ";", " ", "\t", "é", "%00", "name", "AND", "start");

  @Test
  void readsWhatSolrsParserReadsOrLeavesItToIt() {
    Random random = new Random(20261130);
    int read = 0;
    for (int n = 0; n < 50_000; n++) {
      StringBuilder query = new StringBuilder();
      for (int pieces = random.nextInt(12); pieces > 0; pieces--) {
        query.append(PIECES.get(random.nextInt(PIECES.size())));
      }
      SolrParams ours = QueryStringParams.parse(query.toString());
      if (ours == null) {
        continue;
      }
      read++;
      SolrParams solrs;
      try {
        solrs = SolrRequestParsers.parseQueryString(query.toString());
      } catch (SolrException e) {
        throw new AssertionError("Solr's parser refuses what was read: " + query, e);
      }
      assertEquals(asMap(solrs), asMap(ours), query.toString());
    }
    assertTrue(read > 5_000, read + " of the strings read here");
  }

  @Test
  void readsTheQueriesClientsSend() {
    String q = "name:\"java.lang:name=Code Cache,type=MemoryPool/Usage/init\" AND host:\"pre-int\" AND start:1439403941389";
    String query = "q=" + URLEncoder.encode(q, StandardCharsets.UTF_8) + "&fl=name&cf="
        + URLEncoder.encode("metric{max;outlier}", StandardCharsets.UTF_8) + "&fq=type:metric&fq=host:%C3%A9t%C3%A9&rows";
    SolrParams params = QueryStringParams.parse(query);
    assertNotNull(params);
    assertEquals(q, params.get("q"));
    assertEquals("metric{max;outlier}", params.get("cf"));
    assertEquals(List.of("type:metric", "host:été"), Arrays.asList(params.getParams("fq")));
    assertEquals("", params.get("rows"));
    assertEquals(asMap(SolrRequestParsers.parseQueryString(query)), asMap(params));
    assertEquals(Map.of(), asMap(QueryStringParams.parse(null)));
    assertEquals(Map.of(), asMap(QueryStringParams.parse("")));
  }

  @Test
  void leavesToSolrsParserWhatItRefusesOrReadsItsOwnWay() {
    for (String query : List.of("q=é", "q=%2", "q=%zz", "q=%C3", "=x", "ie=ISO-8859-1&q=%E9", "a b=1", "q%3D=1",
        "+q=1")) {
      assertNull(QueryStringParams.parse(query), query);
    }
  }

  private static Map<String, List<String>> asMap(SolrParams params) {
    Map<String, List<String>> map = new TreeMap<>();
    for (Iterator<String> names = params.getParameterNamesIterator(); names.hasNext(); ) {
      String name = names.next();
      map.put(name, Arrays.asList(params.getParams(name)));
    }
    return map;
  }
}
