package io.chronix.solr.query;

import io.chronix.core.live.LiveSeries;
import io.chronix.core.record.RecordFields;
import io.chronix.core.record.RecordSchema;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.memory.MemoryIndex;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.core.SolrCore;
import org.apache.solr.schema.IndexSchema;
import org.apache.solr.search.QueryUtils;
import org.apache.solr.search.SolrIndexSearcher;
import org.apache.solr.update.DocumentBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the series buffered in this process ({@link LiveSeries}) that a query wants. A
 * buffered series is matched as a record holding exactly its buffered points would be: it becomes
 * the Lucene document the schema makes of such a record (so field types, copy fields and
 * defaults are the stored ones), and every query of the request must match it. Series lacking a
 * value the query demands are passed over before that ({@link RequiredValues}). Queries of the
 * shapes series queries have are decided on the record's field values ({@link BufferedQuery});
 * others run on the document indexed alone in memory.
 *
 * <p>A query that cannot run outside a Solr index (one that needs Solr's own searcher) matches no
 * buffered series: the answer is then what is stored, as without live series.
 */
final class LiveMatcher {

  private static final Logger LOG = LoggerFactory.getLogger(LiveMatcher.class);
  private static final byte[] NO_DATA = new byte[0];
  private static final long REUSED_BYTES = 1 << 20;

  private LiveMatcher() {}

  /**
   * The buffered series the queries match and that have points in the range, ordered by key so
   * that answers do not depend on buffer iteration order. Empty on a SolrCloud replica: buffers
   * are never local to one.
   */
  static List<LiveChunk> matching(SolrIndexSearcher searcher, List<Query> queries, TimeRange range) {
    List<LiveChunk> matched = matchingAnyOrder(searcher, queries, range);
    String[] keys = new String[matched.size()];
    Integer[] positions = new Integer[matched.size()];
    for (int i = 0; i < positions.length; i++) {
      keys[i] = matched.get(i).key().toString(); // once a chunk, not twice a comparison
      positions[i] = i;
    }
    Arrays.sort(positions, Comparator.comparing(i -> keys[i]));
    List<LiveChunk> sorted = new ArrayList<>(positions.length);
    for (int position : positions) {
      sorted.add(matched.get(position));
    }
    return sorted;
  }

  /** The buffered series that may match: of the demanded name and with a demanded attribute value where there are such. */
  private static List<LiveSeries.Buffered> snapshot(LiveSeries source, RequiredValues required) {
    String name = required.name();
    if (name == null) {
      return source.snapshot(required::admits);
    }
    int attribute = required.anAttribute();
    return attribute < 0 ? source.snapshot(name, required::admits)
        : source.snapshot(name, required.field(attribute), required.value(attribute), required::admits);
  }

  /** As {@link #matching}, in the buffers' order: for callers that gather the answer into sorted sets. */
  static List<LiveChunk> matchingAnyOrder(SolrIndexSearcher searcher, List<Query> queries, TimeRange range) {
    Optional<LiveSeries> source = sourceOf(searcher.getCore());
    // a store nothing is being written to has nothing buffered: reading the queries for the values
    // they demand was then a thirtieth of a one-hour `max` for nothing
    if (source.isEmpty() || !source.get().hasUnsearchable()) {
      return List.of();
    }
    IndexSchema schema = searcher.getSchema();
    RequiredValues required = RequiredValues.of(queries, schema);
    String name = required.name();
    List<LiveSeries.Buffered> buffered = snapshot(source.get(), required);
    if (buffered.isEmpty()) {
      return List.of();
    }
    List<Query> runnable = queryable(queries);
    BufferedQuery direct = BufferedQuery.of(runnable, schema);
    BufferedRecordSchema records = BufferedRecordSchema.of(schema);
    MemoryIndex memory = null;
    List<LiveChunk> matched = new ArrayList<>();
    for (LiveSeries.Buffered series : buffered) {
      Points points = series.points();
      points.sortAndDeduplicate();
      if (points.isEmpty() || !overlaps(points.timestamp(0), points.timestamp(points.size() - 1), range)) {
        continue; // clipping would leave nothing of it
      }
      // the record its buffered points would become if written as one chunk, without its blob's bytes
      Map<String, Object> record = new LinkedHashMap<>(RecordSchema.bufferedFields(series.key(), points));
      record.put(RecordFields.DATA, NO_DATA);
      int decided = direct == null ? BufferedQuery.UNDECIDED : direct.test(record);
      if (decided == BufferedQuery.NO) {
        continue;
      }
      if (decided == BufferedQuery.YES && records != null) {
        Document stored = records.storedFields(record);
        if (stored != null) {
          matched.add(new LiveChunk(series.key(), stored, points));
          continue;
        }
      }
      Document document;
      try {
        document = DocumentBuilder.toDocument(solrDocument(record), schema);
      } catch (SolrException e) {
        continue; // the schema refuses such a record (an attribute that is not a number where one is due)
      }
      if (decided == BufferedQuery.UNDECIDED) {
        try {
          if (memory == null) {
            // the only way to an index that keeps its pools across reset(); fresh ones per series cost more
            memory = MemoryIndex.fromDocument(document, schema.getIndexAnalyzer(), false, false, REUSED_BYTES);
          } else {
            memory.reset();
            for (IndexableField field : document) {
              memory.addField(field, schema.getIndexAnalyzer());
            }
          }
          if (!matchesAll(memory.createSearcher(), runnable)) {
            continue;
          }
        } catch (IOException | RuntimeException e) {
          LOG.warn("query {} cannot be matched against buffered points, answering stored records only: {}",
              queries, e.toString());
          return List.of();
        }
      }
      matched.add(new LiveChunk(series.key(), storedFields(document), points));
    }
    return matched;
  }

  /**
   * The keys of the buffered series the queries match, for a listing of series, where a series'
   * key and the span of its points settle it: the queries compare no other field of the record
   * ({@link BufferedQuery}), and the schema stores the record's name, type and attributes as they
   * are. Reads no points, and tests only the series the listing still {@code needs}: each match
   * goes to {@code matched} at once, so one whose fields add nothing to what the records and the
   * matches before it gave is passed over unread. False where that does not hold, perhaps after
   * some matches: {@link #matchingAnyOrder} answers then, those among its answer.
   *
   * @param only the series to visit, by a field's values; null for every series
   * @param namesNeeded whether any series with a key's name and attribute names may be needed (its
   *     answer depends on those alone): the buffers pass over the groups of series it refuses
   */
  static boolean matchingKeys(SolrIndexSearcher searcher, List<Query> queries, TimeRange range, BufferedValues only,
      Predicate<SeriesKey> namesNeeded, Predicate<SeriesKey> needs, Consumer<SeriesKey> matched) {
    Optional<LiveSeries> source = sourceOf(searcher.getCore());
    if (source.isEmpty() || !source.get().hasUnsearchable()) {
      return true;
    }
    IndexSchema schema = searcher.getSchema();
    List<Query> runnable = queryable(queries);
    BufferedQuery direct = BufferedQuery.of(runnable, schema);
    if (direct == null || !direct.fields().stream().allMatch(RecordSchema::isSpanField)) {
      return false;
    }
    BufferedRecordSchema records = BufferedRecordSchema.of(schema);
    if (records == null) {
      return false;
    }
    RequiredValues required = RequiredValues.of(queries, schema);
    boolean[] gaveUp = {false};
    // a key the schema does not store as given reaches the test below, which gives up on it
    Predicate<SeriesKey> wanted = key -> !gaveUp[0] && required.admits(key)
        && (!records.keyAsGiven(key) || needs.test(key));
    Predicate<SeriesKey> namesWanted = key -> !gaveUp[0] && (!records.keyAsGiven(key) || namesNeeded.test(key));
    Consumer<LiveSeries.Span> each = span -> {
      if (gaveUp[0] || !overlaps(span.firstNanos(), span.lastNanos(), range)) {
        return;
      }
      SeriesKey key = span.key();
      if (!records.keyAsGiven(key)) {
        gaveUp[0] = true;
        return;
      }
      int decided = direct.test(RecordSchema.spanFields(key, span.firstNanos(), span.lastNanos()));
      if (decided == BufferedQuery.UNDECIDED) {
        gaveUp[0] = true;
      } else if (decided == BufferedQuery.YES) {
        matched.accept(key);
      }
    };
    if (only == null) {
      source.get().spans(required.name(), namesWanted, wanted, each);
    } else {
      source.get().spans(required.name(), only.field(), only.values(), namesWanted, wanted, each);
    }
    return !gaveUp[0];
  }

  /**
   * Whether every value the series field has among the buffered series passes the test, told
   * without visiting them ({@link LiveSeries#everyValue}); true where nothing is buffered here.
   */
  static boolean everyBufferedValue(SolrIndexSearcher searcher, String field, Predicate<String> test) {
    Optional<LiveSeries> source = sourceOf(searcher.getCore());
    return source.isEmpty() || source.get().everyValue(field, test);
  }

  /** The queries as Solr runs them: it answers a purely negative query against all documents. */
  private static List<Query> queryable(List<Query> queries) {
    List<Query> runnable = new ArrayList<>(queries.size());
    for (Query query : queries) {
      runnable.add(QueryUtils.makeQueryable(query));
    }
    return runnable;
  }

  private static Optional<LiveSeries> sourceOf(SolrCore core) {
    if (core.getCoreContainer().isZooKeeperAware()) {
      return Optional.empty();
    }
    // the server offers its buffers under its collection name, which is the embedded core's name
    return Optional.ofNullable(core.getCoreContainer().getObjectCache()
        .get(LiveSeries.containerKey(core.getName()), LiveSeries.class));
  }

  /** Whether points from the first to the last timestamp (nanoseconds) reach into the range. */
  private static boolean overlaps(long firstNanos, long lastNanos, TimeRange range) {
    return range.isAll() || (lastNanos >= range.fromNanos() && firstNanos < range.toNanosExclusive());
  }

  /** Counting, not scoring: a query of filter clauses only matches with score 0. */
  private static boolean matchesAll(IndexSearcher searcher, List<Query> queries) throws IOException {
    for (Query query : queries) {
      if (searcher.count(query) == 0) {
        return false;
      }
    }
    return true;
  }

  private static SolrInputDocument solrDocument(Map<String, Object> record) {
    SolrInputDocument document = new SolrInputDocument();
    record.forEach(document::setField);
    return document;
  }

  /** What loading a stored record of the series returns: its stored fields only. */
  private static Document storedFields(Document document) {
    Document stored = new Document();
    for (IndexableField field : document) {
      if (field.fieldType().stored()) {
        stored.add(field);
      }
    }
    return stored;
  }
}
