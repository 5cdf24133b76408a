package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.live.LiveSeries;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.ValueType;
import io.chronix.solr.selector.SelectorQuery;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.lucene.search.Query;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.apache.solr.request.LocalSolrQueryRequest;
import org.apache.solr.search.QParser;
import org.apache.solr.search.SolrIndexSearcher;
import org.apache.solr.util.RefCounted;
import org.junit.jupiter.api.Test;

/**
 * A listing's buffered series from their keys and spans ({@link LiveMatcher#matchingKeys}) must be
 * those, with the same fields, that the documents of their records give ({@link
 * LiveMatcher#matchingAnyOrder}), for the queries listings send: time ranges, PromQL selectors,
 * names and attributes, over random buffered series.
 */
class LiveMatcherTest extends OnTestCore {

  private static final Date NOW = Date.from(Instant.parse("2026-11-27T12:00:00Z"));

  @Test
  void keysAndSpansListWhatTheRecordsWould() throws Exception {
    Random random = new Random(27);
    Buffers buffers = new Buffers();
    core.getCoreContainer().getObjectCache().put(LiveSeries.containerKey(core.getName()), buffers);
    RefCounted<SolrIndexSearcher> searcher = core.getSearcher();
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      QParser parser = QParser.getParser("*:*", request);
      int listed = 0;
      for (int round = 0; round < 60; round++) {
        buffers.series = series(random);
        long from = random.nextInt(8_000);
        long to = from + random.nextInt(4_000);
        TimeRange range = new TimeRange(from, to);
        List<List<Query>> shapes = new ArrayList<>();
        Query span = PlainConjunction.parse("start:" + from + " AND end:" + to, NOW, request.getSchema(), parser).query();
        shapes.add(List.of(span, QParser.getParser("-type:string", request).getQuery()));
        shapes.add(List.of(span, SelectorQuery.parse("cpu", parser)));
        shapes.add(List.of(span, SelectorQuery.parse("{host=~\"a|b\",dc!=\"eu\"}", parser)));
        shapes.add(List.of(span, SelectorQuery.parse("{__name__=~\"cpu.*\",host=\"\"}", parser)));
        shapes.add(List.of(QParser.getParser("name:mem AND host:c", request).getQuery()));
        for (List<Query> queries : shapes) {
          List<SeriesKey> keys = new ArrayList<>();
          assertTrue(LiveMatcher.matchingKeys(searcher.get(), queries, range, null, key -> true, key -> true, keys::add),
              () -> "a listing's queries need no points: " + queries);
          Set<Map<String, Object>> fromKeys = new HashSet<>();
          for (SeriesKey key : keys) {
            fromKeys.add(SeriesFields.of(key).view());
          }
          Set<Map<String, Object>> fromRecords = new HashSet<>();
          for (LiveChunk chunk : LiveMatcher.matchingAnyOrder(searcher.get(), queries, range)) {
            SeriesFields fields = new SeriesFields();
            fields.addAll(chunk.fields());
            fromRecords.add(fields.view());
          }
          assertEquals(fromRecords, fromKeys, () -> queries + " over " + range);
          listed += keys.size();
        }
      }
      assertTrue(listed > 1_000, "series listed: " + listed);

      buffers.series = List.of(new LiveSeries.Buffered(SeriesKey.metric("cpu", Map.of("rack_l", "x")), points(5, 6)));
      assertFalse(LiveMatcher.matchingKeys(searcher.get(), List.of(SelectorQuery.parse("cpu", parser)), TimeRange.ALL,
          null, key -> true, key -> true, key -> {}),
          "an attribute the schema stores as a number: the record's document decides");
      assertFalse(LiveMatcher.matchingKeys(searcher.get(), List.of(QParser.getParser("count:[1 TO *]", request).getQuery()),
          TimeRange.ALL, null, key -> true, key -> true, key -> {}), "a query on the record's statistics needs the points");
    } finally {
      searcher.decref();
      core.getCoreContainer().getObjectCache().remove(LiveSeries.containerKey(core.getName()));
    }
  }

  /**
   * A source with nothing unsearchable is not asked for its series: the listing has all it can
   * have, and a series query matches no buffered series.
   */
  @Test
  void aSourceWithNothingUnsearchableIsNotAskedForItsSeries() throws Exception {
    Buffers buffers = new Buffers() {
      @Override
      public boolean hasUnsearchable() {
        return false;
      }

      @Override
      public List<Buffered> snapshot(Predicate<SeriesKey> wanted) {
        throw new AssertionError("asked for its series");
      }
    };
    core.getCoreContainer().getObjectCache().put(LiveSeries.containerKey(core.getName()), buffers);
    RefCounted<SolrIndexSearcher> searcher = core.getSearcher();
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      QParser parser = QParser.getParser("*:*", request);
      assertTrue(LiveMatcher.matchingKeys(searcher.get(), List.of(SelectorQuery.parse("cpu", parser)), TimeRange.ALL,
          null, key -> true, key -> true, key -> {
            throw new AssertionError("a key matched");
          }));
      assertTrue(LiveMatcher.matching(searcher.get(), List.of(QParser.getParser("name:cpu AND host:a", request)
          .getQuery()), TimeRange.ALL).isEmpty());
    } finally {
      searcher.decref();
      core.getCoreContainer().getObjectCache().remove(LiveSeries.containerKey(core.getName()));
    }
  }

  /**
   * A query that demands a name and an attribute's value offers the value to the source, which may
   * visit only the series with it; the matches are those of a source that tests every series.
   */
  @Test
  void aDemandedAttributeValueIsOfferedToTheSource() throws Exception {
    Random random = new Random(5);
    List<LiveSeries.Buffered> all = series(random);
    Buffers testing = new Buffers();
    testing.series = all;
    List<String> offered = new ArrayList<>();
    Buffers indexed = new Buffers() {
      @Override
      public List<Buffered> snapshot(String name, String attribute, String value, Predicate<SeriesKey> wanted) {
        offered.add(name + " " + attribute + "=" + value);
        return snapshot(key -> key.name().equals(name) && value.equals(key.attributes().get(attribute))
            && wanted.test(key));
      }
    };
    indexed.series = all;
    RefCounted<SolrIndexSearcher> searcher = core.getSearcher();
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      QParser parser = QParser.getParser("*:*", request);
      Map<String, String> queries = new java.util.LinkedHashMap<>();
      queries.put("name:mem AND host:c", "mem host=c");
      queries.put("cpu{host=\"a\", dc!=\"eu\"}", "cpu host=a");
      queries.put("name:cpu", null);
      queries.put("host:a", null);
      queries.put("name:cpu AND host:a AND host:b", null);
      for (Map.Entry<String, String> shape : queries.entrySet()) {
        Query query = shape.getKey().startsWith("name:") || shape.getKey().startsWith("host:")
            ? QParser.getParser(shape.getKey(), request).getQuery() : SelectorQuery.parse(shape.getKey(), parser);
        Set<String> expected = fields(testing, searcher.get(), query);
        assertTrue(shape.getValue() == null || !expected.isEmpty(), () -> "nothing matches " + shape.getKey());
        offered.clear();
        assertEquals(expected, fields(indexed, searcher.get(), query), shape.getKey());
        assertEquals(shape.getValue() == null ? List.of() : List.of(shape.getValue()), offered, shape.getKey());
      }
    } finally {
      searcher.decref();
      core.getCoreContainer().getObjectCache().remove(LiveSeries.containerKey(core.getName()));
    }
  }

  private Set<String> fields(Buffers buffers, SolrIndexSearcher searcher, Query query) {
    core.getCoreContainer().getObjectCache().put(LiveSeries.containerKey(core.getName()), buffers);
    Set<String> fields = new HashSet<>();
    for (LiveChunk chunk : LiveMatcher.matchingAnyOrder(searcher, List.of(query), TimeRange.ALL)) {
      SeriesFields series = new SeriesFields();
      series.addAll(chunk.fields());
      fields.add(series.view().toString());
    }
    return fields;
  }

  private static List<LiveSeries.Buffered> series(Random random) {
    List<LiveSeries.Buffered> series = new ArrayList<>();
    String[] names = {"cpu", "mem", "cpu_total"};
    String[] hosts = {"a", "b", "c", "é"};
    for (int i = 0; i < 60; i++) {
      Map<String, String> attributes = new TreeMap<>();
      if (random.nextInt(5) > 0) {
        attributes.put("host", hosts[random.nextInt(hosts.length)]);
      }
      if (random.nextBoolean()) {
        attributes.put("dc", random.nextBoolean() ? "eu" : "us");
      }
      attributes.put("n", String.valueOf(i));
      SeriesKey key = random.nextInt(8) == 0 ? new SeriesKey("log", "string", attributes)
          : SeriesKey.metric(names[random.nextInt(names.length)], attributes);
      long first = random.nextInt(10_000);
      series.add(new LiveSeries.Buffered(key, points(first, first + random.nextInt(3_000))));
    }
    return series;
  }

  /** Points from the first to the last millisecond, out of order and repeated as buffers hold them. */
  private static Points points(long firstMillis, long lastMillis) {
    Points points = new Points(ValueType.DOUBLE, 4);
    points.add(lastMillis * 1_000_000L, 2);
    points.add(firstMillis * 1_000_000L, 1);
    points.add(lastMillis * 1_000_000L, 3);
    return points;
  }

  /** Buffered series as a server offers them to its node; snapshots are copies. */
  private static class Buffers implements LiveSeries {
    List<LiveSeries.Buffered> series = List.of();

    @Override
    public List<Buffered> snapshot(Predicate<SeriesKey> wanted) {
      List<Buffered> copies = new ArrayList<>();
      for (Buffered buffered : series) {
        if (wanted.test(buffered.key())) {
          Points copy = new Points(ValueType.DOUBLE, buffered.points().size());
          copy.addAll(buffered.points());
          copies.add(new Buffered(buffered.key(), copy));
        }
      }
      return copies;
    }
  }
}
