package io.chronix.solr.query;

import io.chronix.core.codec.KeptBlocks;
import io.chronix.core.record.RecordFields;
import io.chronix.core.record.RecordSchema;
import java.io.IOException;
import java.util.List;
import java.util.function.IntFunction;
import org.apache.lucene.codecs.StoredFieldsReader;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.DocumentStoredFieldVisitor;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FilterLeafReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.StoredFields;
import org.apache.solr.schema.IndexSchema;
import org.apache.solr.search.BitDocSet;
import org.apache.solr.search.DocIterator;
import org.apache.solr.search.DocSet;
import org.apache.solr.search.SolrIndexSearcher;
import org.apache.solr.search.SortedIntDocSet;

/**
 * Reads the stored fields of the records a query matched, segment by segment in doc id order.
 *
 * <p>Stored fields are compressed in blocks of many documents. Read one at a time, every document
 * costs decompressing its part of a block and the block's dictionary again: ten thousand small
 * records took seconds. Where a segment's matches are dense, they are read through the codec's
 * merge instance, which decompresses each block once for all its documents (the sequential
 * reader Lucene's merges use); sparse matches are read one at a time, where whole blocks would
 * be decompressed for a document or two.
 *
 * <p>Records whose blobs are not wanted come from the segment's doc values where it has them for
 * every stored field ({@link DocValueRecords}): no stored-fields block is inflated for them. Records
 * read with their blobs are kept in the {@link RecordCache} and taken from it again: a dashboard's
 * `rate` over a thousand counters spent 69 % of its time inflating blocks for records it had read
 * at its last refresh.
 *
 * <p>Doc values come from each segment itself: a composite view over all segments costs a
 * per-request wrapper and a binary search per document, a tenth of a small query's time.
 */
final class RecordReader {

  /** Matches per segment from which whole-block reading can pay off. */
  private static final int MIN_SEQUENTIAL = 16;
  /** At least one in this many documents of the matches' doc id span must match. */
  private static final int MAX_GAP = 16;
  /** Records read from doc values together (their columns looked up in ordinal order). */
  static final int BATCH = 4_096;
  /**
   * Up to this many records without blobs a segment are taken from the record cache: for a few
   * records, opening the columns costs more than the reading; for many, the columns read in
   * ordinal order cost less than a cache entry each.
   */
  static final int CACHED_WITHOUT_BLOB = 64;

  @FunctionalInterface
  interface RecordConsumer {
    /**
     * @param writeOrder the record's place in write order ({@link RecordSchema#writeOrder})
     * @param record as read from its stored fields; without its blob where that was not wanted
     * @param keptBlocks where its blob's decoded blocks are kept ({@link RecordCache#blocksOf})
     */
    void accept(int docId, long writeOrder, ReadRecord record, KeptBlocks keptBlocks) throws IOException;
  }

  /** Which records' blobs to read, decided from their span (epoch milliseconds) before reading them. */
  @FunctionalInterface
  interface DataNeed {
    DataNeed ALL = (start, end) -> true;
    DataNeed NONE = (start, end) -> false;

    boolean wants(long startMillis, long endMillis);
  }

  private RecordReader() {}

  /**
   * Visits every document of {@code docs} in doc id order.
   *
   * @param need whose blobs ({@link RecordFields#DATA}) are read; listings need none
   */
  static void read(SolrIndexSearcher searcher, DocSet docs, DataNeed need, RecordCache cache,
      RecordConsumer consumer) throws IOException {
    int[] ids = sortedIds(docs);
    byLeaf(searcher, ids, (leaf, from, to) -> readLeaf(leaf, ids, from, to, need, cache, consumer, searcher.getSchema()));
  }

  @FunctionalInterface
  interface LeafPart {
    /** The matches {@code ids[from, to)} fall into this segment. */
    void accept(LeafReaderContext leaf, int from, int to) throws IOException;
  }

  /** Splits increasing document ids by the segments they fall into, segments without any left out. */
  static void byLeaf(SolrIndexSearcher searcher, int[] ids, LeafPart part) throws IOException {
    int from = 0;
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      int end = leaf.docBase + leaf.reader().maxDoc();
      int to = from;
      while (to < ids.length && ids[to] < end) {
        to++;
      }
      if (to > from) {
        part.accept(leaf, from, to);
      }
      from = to;
    }
  }

  private static void readLeaf(LeafReaderContext leaf, int[] ids, int from, int to, DataNeed need,
      RecordCache cache, RecordConsumer consumer, IndexSchema schema) throws IOException {
    LeafReader reader = leaf.reader();
    DocValueRecords withoutBlobs = need == DataNeed.ALL ? null : DocValueRecords.of(reader, schema);
    StoredFields fields = need == DataNeed.NONE && withoutBlobs != null ? null : sequential(leaf, ids, from, to);
    IntFunction<KeptBlocks> keptBlocks = cache.blocksOf(reader);
    NumericDocValues orders = reader.getNumericDocValues(RecordFields.WRITE_ORDER);
    NumericDocValues versions = reader.getNumericDocValues(RecordFields.VERSION);
    boolean everyBlob = need == DataNeed.ALL;
    NumericDocValues starts = everyBlob || need == DataNeed.NONE ? null : reader.getNumericDocValues(RecordFields.START);
    NumericDocValues ends = starts == null ? null : reader.getNumericDocValues(RecordFields.END);
    // in batches: the records of a batch read from doc values exist at once, not a segment's million
    for (int batch = from; batch < to; batch += BATCH) {
      int count = Math.min(BATCH, to - batch);
      boolean[] withData = new boolean[count];
      int[] withoutData = new int[count];
      int without = 0;
      for (int i = 0; i < count; i++) {
        int doc = ids[batch + i] - leaf.docBase;
        withData[i] = everyBlob;
        if (starts != null) {
          Long start = valueOf(starts, doc);
          Long end = valueOf(ends, doc);
          // a record without its span in doc values is read whole: the join can do without them
          withData[i] = start == null || end == null || need.wants(start, end);
        }
        if (!withData[i]) {
          withoutData[without++] = doc;
        }
      }
      // records without blobs read together from doc values, before the others are visited in order
      ReadRecord[] fromDocValues = withoutBlobs == null || without == 0 ? null
          : without <= CACHED_WITHOUT_BLOB ? readThroughCache(reader, withoutBlobs, withoutData, without, cache)
          : records(withoutBlobs.read(withoutData, without));
      int nextWithout = 0;
      for (int i = 0; i < count; i++) {
        int doc = ids[batch + i] - leaf.docBase;
        ReadRecord record = withData[i] ? cache.get(reader, doc) : null;
        if (record == null && !withData[i] && fromDocValues != null) {
          record = fromDocValues[nextWithout++];
        } else if (record == null) {
          if (fields == null) {
            fields = reader.storedFields();
          }
          DocumentStoredFieldVisitor visitor = withData[i] ? new DocumentStoredFieldVisitor() : new WithoutData();
          fields.document(doc, visitor);
          record = ReadRecord.of(visitor.getDocument());
          if (withData[i]) {
            cache.put(reader, doc, record);
          }
        }
        long writeOrder = RecordSchema.writeOrder(valueOf(orders, doc), valueOf(versions, doc), ids[batch + i]);
        consumer.accept(ids[batch + i], writeOrder, record, withData[i] ? keptBlocks.apply(doc) : KeptBlocks.NONE);
      }
    }
  }

  /** {@link DocValueRecords#read}, the records the cache holds taken from it, the others kept in it. */
  private static ReadRecord[] readThroughCache(LeafReader reader, DocValueRecords columns, int[] docs, int count,
      RecordCache cache) throws IOException {
    ReadRecord[] records = new ReadRecord[count];
    int[] missing = new int[count];
    int misses = 0;
    for (int i = 0; i < count; i++) {
      records[i] = cache.getWithoutBlob(reader, docs[i]);
      if (records[i] == null) {
        missing[misses++] = docs[i];
      }
    }
    if (misses > 0) {
      Document[] read = columns.read(missing, misses);
      for (int i = 0, next = 0; i < count; i++) {
        if (records[i] == null) {
          records[i] = ReadRecord.of(read[next++]);
          cache.putWithoutBlob(reader, docs[i], records[i]);
        }
      }
    }
    return records;
  }

  private static ReadRecord[] records(Document[] documents) {
    ReadRecord[] records = new ReadRecord[documents.length];
    for (int i = 0; i < documents.length; i++) {
      records[i] = ReadRecord.of(documents[i]);
    }
    return records;
  }

  /**
   * The set's documents in increasing order. The two kinds of set a search gives are read as they
   * are kept (a bit set word by word, a sorted array copied): through the set's iterator, a call
   * and a check a document, listing the label names of 10,000 series spent a fifth of its time
   * here. Other sets iterate in order too, but nothing promises it, so they are sorted. A word
   * with every bit set (a listing of every series matches most records) is written out without
   * finding its bits: the quick compiler calls {@code Long.numberOfTrailingZeros} rather than
   * inlining it, a call per document.
   */
  static int[] sortedIds(DocSet docs) {
    if (docs instanceof SortedIntDocSet sorted) {
      return sorted.getDocs().clone(); // the set may sit in a cache: callers get their own array
    }
    int[] ids = new int[docs.size()];
    int n = 0;
    if (docs instanceof BitDocSet bitSet) {
      long[] words = bitSet.getBits().getBits();
      for (int w = 0; w < words.length && n < ids.length; w++) {
        long word = words[w];
        if (word == -1L && n <= ids.length - 64) { // 64 documents in a row: no search for the bits
          for (int doc = w << 6, end = doc + 64; doc < end; doc++) {
            ids[n++] = doc;
          }
          continue;
        }
        while (word != 0 && n < ids.length) {
          ids[n++] = (w << 6) + Long.numberOfTrailingZeros(word);
          word &= word - 1;
        }
      }
      return n == ids.length ? ids : java.util.Arrays.copyOf(ids, n);
    }
    DocIterator iterator = docs.iterator();
    while (iterator.hasNext()) {
      ids[n++] = iterator.nextDoc();
    }
    java.util.Arrays.sort(ids, 0, n);
    return n == ids.length ? ids : java.util.Arrays.copyOf(ids, n);
  }

  private static Long valueOf(NumericDocValues values, int doc) throws IOException {
    return values != null && values.advanceExact(doc) ? values.longValue() : null;
  }

  /** The merge instance of the segment's stored fields when the matches are dense, else null. */
  private static StoredFields sequential(LeafReaderContext leaf, int[] ids, int from, int to) throws IOException {
    int count = to - from;
    long span = (long) ids[to - 1] - ids[from] + 1;
    if (count < MIN_SEQUENTIAL || span > (long) count * MAX_GAP) {
      return null;
    }
    LeafReader reader = FilterLeafReader.unwrap(leaf.reader());
    if (!(reader instanceof CodecReader codec)) {
      return null;
    }
    StoredFieldsReader stored = codec.getFieldsReader();
    return stored == null ? null : stored.getMergeInstance();
  }

  private static final class WithoutData extends DocumentStoredFieldVisitor {
    @Override
    public Status needsField(FieldInfo fieldInfo) {
      return fieldInfo.name.equals(RecordFields.DATA) ? Status.NO : Status.YES;
    }
  }
}
