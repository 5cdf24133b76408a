package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.record.RecordFields;
import io.chronix.core.record.RecordSchema;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import io.chronix.solr.selector.SelectorQuery;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.lucene.index.memory.MemoryIndex;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.apache.solr.request.LocalSolrQueryRequest;
import org.apache.solr.schema.IndexSchema;
import org.apache.solr.search.QParser;
import org.apache.solr.search.QueryUtils;
import org.apache.solr.update.DocumentBuilder;
import org.junit.jupiter.api.Test;

/**
 * A buffered series' record decided on its field values must match exactly where the same record
 * indexed alone in memory matches, which is how {@link LiveMatcher} matched every buffered series
 * before: random series against the queries Solr's parser, the plain conjunctions and PromQL
 * selectors build on the project's schema.
 */
class BufferedQueryTest extends OnTestCore {

  private static final Date NOW = Date.from(Instant.parse("2026-11-27T12:00:00Z"));

  @Test
  void decidesAsTheRecordIndexedAloneWould() throws Exception {
    Random random = new Random(20261127);
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      IndexSchema schema = request.getSchema();
      QParser parser = QParser.getParser("*:*", request);
      List<Query> queries = new ArrayList<>();
      for (String q : List.of("*:*", "name:cpu", "name:cpu AND host:a", "-type:string", "host:[a TO b]",
          "host:{a TO c}", "host:[* TO b]", "(host:a OR host:b) AND -dc:eu", "host:a OR dc:eu", "-host:a -dc:eu",
          "start:[1000 TO *]", "end:[* TO 5000] AND name:mem", "start:{1000 TO 4000]", "host:*", "name:c*",
          "count:[2 TO *]", "max:[0 TO 10]", "rack_l:7")) {
        queries.add(QParser.getParser(q, request).getQuery());
      }
      for (String q : List.of("name:cpu AND start:2000 AND end:3000", "start:1500", "host:a AND end:1200")) {
        queries.add(PlainConjunction.parse(q, NOW, schema, parser).query());
      }
      for (String selector : List.of("cpu", "{host=~\"a|b\"}", "{host!=\"\"}", "{dc!~\"e.*\",host=~\".+\"}", "cpu{host=\"a\",dc=\"\"}",
          "{__name__=~\"cpu|mem\",host!=\"b\"}", "{dc=~\"|eu\",__name__=~\".+\"}", "{rack_l=\"7\"}", "{host!~\"a|\",__name__=~\"c.*\"}")) {
        queries.add(SelectorQuery.parse(selector, parser));
      }
      int[] outcomes = new int[2];
      int decidedQueries = 0;
      for (Query query : queries) {
        Query runnable = QueryUtils.makeQueryable(query);
        BufferedQuery direct = BufferedQuery.of(List.of(runnable), schema);
        if (direct == null) {
          continue;
        }
        decidedQueries++;
        for (int i = 0; i < 300; i++) {
          Map<String, Object> fields = fields(random);
          int decided = direct.test(fields);
          Boolean indexed = indexed(fields, runnable, schema);
          if (decided == BufferedQuery.UNDECIDED || indexed == null) {
            continue;
          }
          assertEquals(indexed, decided == BufferedQuery.YES, () -> query + " on " + fields);
          outcomes[decided]++;
        }
      }
      assertTrue(decidedQueries >= 20, "queries decided without an index: " + decidedQueries + " of " + queries.size());
      assertTrue(outcomes[0] > 1_000 && outcomes[1] > 1_000, "matches " + outcomes[1] + ", misses " + outcomes[0]);
    }
  }

  @Test
  void theShapesOfSeriesQueriesNeedNoIndex() throws Exception {
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      IndexSchema schema = request.getSchema();
      QParser parser = QParser.getParser("*:*", request);
      List<Query> listing = List.of(QueryUtils.makeQueryable(
          PlainConjunction.parse("start:1000 AND end:2000", NOW, schema, parser).query()),
          QueryUtils.makeQueryable(QParser.getParser("-type:string", request).getQuery()));
      assertNotNull(BufferedQuery.of(listing, schema), "a label listing's queries");
      assertNotNull(BufferedQuery.of(List.of(SelectorQuery.parse("{__name__=~\"cpu.*\",host!=\"a\",dc=\"\"}", parser)),
          schema), "a PromQL selector");
      assertNull(BufferedQuery.of(List.of(QParser.getParser("name:cpu~1", request).getQuery()), schema),
          "a fuzzy query is left to the index");
    }
  }

  /** A buffered series' record fields: a few names and attributes, spans, a numeric attribute now and then. */
  private static Map<String, Object> fields(Random random) {
    Map<String, String> attributes = new TreeMap<>();
    String[] hosts = {"a", "b", "c", "ab", "é"};
    if (random.nextInt(4) > 0) {
      attributes.put("host", hosts[random.nextInt(hosts.length)]);
    }
    if (random.nextBoolean()) {
      attributes.put("dc", random.nextBoolean() ? "eu" : "us");
    }
    if (random.nextInt(5) == 0) {
      attributes.put("rack_l", String.valueOf(random.nextInt(9)));
    }
    String[] names = {"cpu", "mem", "cpu2"};
    SeriesKey key = random.nextInt(6) == 0
        ? new SeriesKey(names[random.nextInt(names.length)], "string", attributes)
        : SeriesKey.metric(names[random.nextInt(names.length)], attributes);
    Points points = new Points(io.chronix.core.series.ValueType.DOUBLE, 4);
    long start = random.nextInt(6_000) * 1_000_000L;
    for (int i = 0; i <= random.nextInt(4); i++) {
      points.add(start + i * random.nextInt(2_000) * 1_000_000L, random.nextInt(20));
    }
    points.sortAndDeduplicate();
    return new LinkedHashMap<>(RecordSchema.bufferedFields(key, points));
  }

  /** The record indexed alone in memory and the query counted on it; null where the schema refuses the record. */
  private static Boolean indexed(Map<String, Object> fields, Query query, IndexSchema schema) throws IOException {
    SolrInputDocument record = new SolrInputDocument();
    fields.forEach(record::setField);
    record.setField(RecordFields.DATA, new byte[0]);
    MemoryIndex memory;
    try {
      memory = MemoryIndex.fromDocument(DocumentBuilder.toDocument(record, schema), schema.getIndexAnalyzer(), false,
          false);
    } catch (SolrException refused) {
      return null;
    }
    IndexSearcher searcher = memory.createSearcher();
    return searcher.count(query) > 0;
  }
}
