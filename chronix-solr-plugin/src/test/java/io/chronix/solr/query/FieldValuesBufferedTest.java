package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.chronix.core.live.LiveSeries;
import io.chronix.core.record.RecordFields;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.ValueType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.lucene.search.Query;
import org.apache.solr.client.solrj.embedded.EmbeddedSolrServer;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.apache.solr.request.LocalSolrQueryRequest;
import org.apache.solr.search.QParser;
import org.apache.solr.search.SolrIndexSearcher;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A label's values with buffered series: where the buffers tell that every value they hold is one
 * the records list ({@link LiveSeries#everyValue}), no buffered series is visited; where one is
 * new, those with the new value are, and the answer is what visiting them all gives.
 */
class FieldValuesBufferedTest extends OnTestCore {

  private static final Date NOW = Date.from(Instant.parse("2026-11-27T12:00:00Z"));

  @BeforeAll
  static void indexRecords() throws Exception {
    try (EmbeddedSolrServer solr = new EmbeddedSolrServer(core)) {
      List<SolrInputDocument> records = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        SolrInputDocument record = new SolrInputDocument();
        record.addField("id", "r" + i);
        record.addField("name", i % 2 == 0 ? "cpu" : "mem");
        record.addField("type", "metric");
        record.addField("host", "h" + i % 5);
        record.addField("start", 1_000L * i);
        record.addField("end", 1_000L * i + 500);
        record.addField("data", new byte[] {0});
        records.add(record);
      }
      solr.add(records);
      solr.commit();
    }
  }

  @Test
  void buffersWithOnlyKnownValuesAreNotVisited() throws Exception {
    Buffers counting = new Buffers(true);
    Buffers visiting = new Buffers(false);
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(core, new ModifiableSolrParams())) {
      SolrIndexSearcher searcher = request.getSearcher();
      QParser parser = QParser.getParser("*:*", request);
      List<Query> queries = List.of(
          PlainConjunction.parse("start:0 AND end:30000", NOW, request.getSchema(), parser).query(),
          QParser.getParser("-type:string", request).getQuery());
      TimeRange range = new TimeRange(0, 30_000);

      List<SeriesKey> known = List.of(SeriesKey.metric("cpu", Map.of("host", "h1")),
          SeriesKey.metric("disk", Map.of("host", "h4")), SeriesKey.metric("mem", Map.of("dc", "eu")));
      counting.keys = known;
      visiting.keys = known;
      List<String> records = List.of("h0", "h1", "h2", "h3", "h4");
      assertEquals(records, values(searcher, queries, range, counting, "host"));
      assertEquals(0, counting.visits, "every buffered host is one the records list");
      assertEquals(records, values(searcher, queries, range, visiting, "host"));
      assertEquals(1, visiting.visits);

      List<SeriesKey> more = new ArrayList<>(known);
      more.add(SeriesKey.metric("disk", Map.of("host", "new")));
      counting.keys = more;
      visiting.keys = more;
      List<String> withNew = List.of("h0", "h1", "h2", "h3", "h4", "new");
      assertEquals(withNew, values(searcher, queries, range, counting, "host"));
      assertEquals(1, counting.visits, "a new host: the buffers are visited");
      assertEquals(List.of("host", Set.of("new")), counting.only, "the series with the new host only");
      assertEquals(withNew, values(searcher, queries, range, visiting, "host"));
      assertNull(visiting.only, "a source that counts no values: every series visited");

      assertEquals(List.of("cpu", "disk", "mem"), values(searcher, queries, range, counting, "name"));
      assertEquals(2, counting.visits, "a name the records lack");
      assertEquals(List.of("name", Set.of("disk")), counting.only);
      counting.keys = known.subList(0, 1);
      assertEquals(List.of("cpu", "mem"), values(searcher, queries, range, counting, "name"));
      assertEquals(2, counting.visits);
    } finally {
      core.getCoreContainer().getObjectCache().remove(LiveSeries.containerKey(core.getName()));
    }
  }

  private static List<String> values(SolrIndexSearcher searcher, List<Query> queries, TimeRange range, Buffers buffers,
      String field) throws Exception {
    core.getCoreContainer().getObjectCache().put(LiveSeries.containerKey(core.getName()), buffers);
    return FieldValues.of(searcher, queries, range, field);
  }

  /** Buffered series with points inside the range; counts the listings that visit them. */
  private static final class Buffers implements LiveSeries {
    private final boolean countsValues;
    List<SeriesKey> keys = List.of();
    int visits;
    /** The field and values the last visit was restricted to. */
    List<Object> only;

    Buffers(boolean countsValues) {
      this.countsValues = countsValues;
    }

    @Override
    public List<Buffered> snapshot(Predicate<SeriesKey> wanted) {
      visits++;
      List<Buffered> copies = new ArrayList<>();
      for (SeriesKey key : keys) {
        if (wanted.test(key)) {
          Points points = new Points(ValueType.DOUBLE, 1);
          points.add(5_000_000_000L, 1);
          copies.add(new Buffered(key, points));
        }
      }
      return copies;
    }

    @Override
    public void spans(String name, String field, Set<String> values, Predicate<SeriesKey> namesWanted,
        Predicate<SeriesKey> wanted, Consumer<Span> each) {
      only = List.of(field, values);
      LiveSeries.super.spans(name, field, values, namesWanted, wanted, each);
    }

    @Override
    public boolean everyValue(String field, Predicate<String> test) {
      if (!countsValues) {
        return false;
      }
      for (SeriesKey key : keys) {
        String value = RecordFields.valueOf(key, field);
        if (value != null && !test.test(value)) {
          return false;
        }
      }
      return true;
    }
  }
}
