package io.chronix.solr.query;

import io.chronix.core.record.RecordFields;
import io.chronix.core.series.AttributeMap;
import io.chronix.core.series.ByNames;
import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.SortedArrayMap;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.DocumentStoredFieldVisitor;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.Query;
import org.apache.solr.search.SolrIndexSearcher;

/**
 * The series fields (name, type, attributes) of the records and buffered series a query matches,
 * read as columns: which fields have values, the distinct values of one field, the distinct series.
 * What the PromQL API's label names, label values and series listing answer. A listing of every
 * matching series built a document, a joined series and an answer document per record for them
 * (66-73 ms over 10,000 series for a label's values, where its column is read in a millisecond or two).
 */
public final class FieldValues {

  private FieldValues() {}

  /**
   * The distinct values of a field among the matches, as the series' fields give them, sorted.
   * Gathered in a set in the order found and sorted once: each segment's column gives its values in
   * order, so the sort meets runs, and the records' values are what a buffered series' value is
   * looked up in. A list of every segment's values sorted whole was a fifth of listing a thousand
   * hosts over a dozen segments, a set made of it after the records another tenth.
   */
  public static List<String> of(SolrIndexSearcher searcher, List<Query> queries, TimeRange range, String field)
      throws IOException {
    Set<String> values = new LinkedHashSet<>();
    read(searcher, queries, range, Set.of(field), new Reading() {
      @Override
      public void columns(LeafReader segment, DocValueRecords columns, int[] docs, int count) throws IOException {
        columns.addValues(field, docs, count, values);
      }

      @Override
      public void fields(SeriesFields fields) {
        values.addAll(fields.valuesOf(field));
      }

      private final KeyFieldValue keyValue = new KeyFieldValue(field);

      @Override
      public BufferedValues bufferedValues(SolrIndexSearcher searcher) {
        Set<String> unknown = new HashSet<>();
        boolean counted = LiveMatcher.everyBufferedValue(searcher, field, value -> {
          if (!values.contains(value)) {
            unknown.add(value);
          }
          return true;
        });
        return counted ? new BufferedValues(field, unknown) : null;
      }

      @Override
      public boolean needs(SeriesKey key) {
        String value = keyValue.of(key);
        return value != null && !values.contains(value);
      }

      @Override
      public boolean needsNames(SeriesKey key) {
        return keyValue.present(key);
      }
    });
    List<String> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return sorted;
  }

  /** The series fields with a value among the matches. */
  public static SortedSet<String> names(SolrIndexSearcher searcher, List<Query> queries, TimeRange range)
      throws IOException {
    // a hash set while gathering: every buffered series is asked about each of its attributes
    Set<String> names = new HashSet<>();
    Reading reading = new Reading() {
      @Override
      public void columns(LeafReader segment, DocValueRecords columns, int[] docs, int count) throws IOException {
        columns.addPresent(docs, count, RecordFields::isSeriesField, names);
      }

      @Override
      public void fields(SeriesFields fields) {
        names.addAll(fields.names());
      }

      /** Whether a key's names add to those found; asked again only when those grow. */
      private final ByNames<AttributeMap, Boolean> newNames = new ByNames<>(attributes -> {
        if (!names.contains(RecordFields.NAME) || !names.contains(RecordFields.TYPE)) {
          return true;
        }
        for (int i = 0; i < attributes.size(); i++) {
          if (!names.contains(attributes.name(i))) {
            return true;
          }
        }
        return false;
      });

      @Override
      public boolean needs(SeriesKey key) {
        return newNames.apply(key.attributes(), names.size());
      }

      @Override
      public boolean needsNames(SeriesKey key) {
        return needs(key);
      }
    };
    long[] window = RecordDocs.overlapWindow(queries.get(0), searcher.getSchema());
    if (window == null || !ColumnSpans.addNames(searcher, queries.subList(1, queries.size()), window[0], window[1],
        names)) {
      readRecords(searcher, queries, null, reading);
    }
    readBuffered(searcher, queries, range, reading);
    return new TreeSet<>(names);
  }

  /**
   * The distinct series among the matches as their fields (name, type, attributes; one value each,
   * as text), in no particular order: what a listing of the series answers, without a document, a
   * joined series and an answer document per record.
   */
  public static Collection<SortedArrayMap<String>> series(SolrIndexSearcher searcher, List<Query> queries,
      TimeRange range) throws IOException {
    SeriesRows series = new SeriesRows();
    read(searcher, queries, range, null, new Reading() {
      @Override
      public void columns(LeafReader segment, DocValueRecords columns, int[] docs, int count) throws IOException {
        RecordSeriesRows.addRows(segment, columns, docs, count, series);
      }

      @Override
      public void fields(SeriesFields fields) {
        series.add(fields.firstValues());
      }

      @Override
      public boolean needs(SeriesKey key) {
        return !series.contains(key);
      }
    });
    return series.rows();
  }

  /** What is done with the matches: a segment's columns where it has them, else each record's or buffered series' fields. */
  private interface Reading {
    /** @param docs the segment's matching document numbers, increasing */
    void columns(LeafReader segment, DocValueRecords columns, int[] docs, int count) throws IOException;

    void fields(SeriesFields fields);

    /**
     * Whether a buffered series (its fields as its key has them) may add to the answer; one that
     * cannot is not matched. Under a steady load nearly every series has buffered points, and a
     * listing matched each of them anew (10,000 live series: 24 ms for label names).
     */
    default boolean needs(SeriesKey key) {
      return true;
    }

    /**
     * The values of a series field one of which a buffered series must have to add to the answer,
     * told without visiting them: none where no buffered series can add to it, null where any may;
     * asked once, after the records. With a value the records lack (a host new since the last
     * write, a series flushed within the last minute), a listing visited all 10,000 buffered series
     * (two thirds of listing a label's values); it visits those with that value now.
     */
    default BufferedValues bufferedValues(SolrIndexSearcher searcher) {
      return null;
    }

    /**
     * Whether any buffered series with this key's name and attribute names may add to the answer,
     * asked once for a group of them: where not, none of the group is asked {@link #needs}.
     */
    default boolean needsNames(SeriesKey key) {
      return true;
    }
  }

  /**
   * Reads the matching records, a segment at a time from its doc values where every stored field
   * has them (else their stored fields, only those given, all series fields where null), then the
   * matching buffered series.
   */
  private static void read(SolrIndexSearcher searcher, List<Query> queries, TimeRange range, Set<String> only,
      Reading reading) throws IOException {
    readRecords(searcher, queries, only, reading);
    readBuffered(searcher, queries, range, reading);
  }

  private static void readRecords(SolrIndexSearcher searcher, List<Query> queries, Set<String> only,
      Reading reading) throws IOException {
    int[] ids = RecordReader.sortedIds(RecordDocs.of(searcher, queries));
    RecordReader.byLeaf(searcher, ids, (leaf, from, to) -> {
      int[] docs = new int[to - from];
      for (int i = from; i < to; i++) {
        docs[i - from] = ids[i] - leaf.docBase;
      }
      DocValueRecords columns = DocValueRecords.of(leaf.reader(), searcher.getSchema());
      if (columns != null) {
        reading.columns(leaf.reader(), columns, docs, docs.length);
      } else {
        forEachStored(leaf.reader(), docs, only, reading);
      }
    });
  }

  private static void readBuffered(SolrIndexSearcher searcher, List<Query> queries, TimeRange range, Reading reading)
      throws IOException {
    BufferedValues wanted = reading.bufferedValues(searcher);
    if (wanted != null && wanted.values().isEmpty()) {
      return;
    }
    // where the keys do not settle it, the chunks' answer includes what the keys gave, and the readings gather sets
    if (LiveMatcher.matchingKeys(searcher, queries, range, wanted, reading::needsNames, reading::needs,
        key -> reading.fields(SeriesFields.of(key)))) {
      return;
    }
    for (LiveChunk live : LiveMatcher.matchingAnyOrder(searcher, queries, range)) {
      reading.fields(fieldsOf(live.fields()));
    }
  }

  private static SeriesFields fieldsOf(Document document) {
    SeriesFields fields = new SeriesFields();
    fields.addAll(document);
    return fields;
  }

  /** A segment written without doc values for every stored field: its records' stored fields, blobs left out. */
  private static void forEachStored(LeafReader leaf, int[] docs, Set<String> only, Reading reading) throws IOException {
    StoredFields stored = leaf.storedFields();
    for (int doc : docs) {
      DocumentStoredFieldVisitor visitor = new DocumentStoredFieldVisitor() {
        @Override
        public Status needsField(FieldInfo info) {
          boolean wanted = only == null ? RecordFields.isSeriesField(info.name) : only.contains(info.name);
          return wanted ? Status.YES : Status.NO;
        }
      };
      stored.document(doc, visitor);
      reading.fields(fieldsOf(visitor.getDocument()));
    }
  }
}
