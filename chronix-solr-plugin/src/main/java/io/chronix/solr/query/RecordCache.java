package io.chronix.solr.query;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.chronix.core.codec.KeptBlocks;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import java.util.function.ToLongFunction;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;

/**
 * Records read with their blobs, kept as queries take them ({@link ReadRecord}) up to a bound in
 * bytes, so that a record asked for again is neither inflated nor picked apart again.
 *
 * <p>Lucene keeps stored fields DEFLATE-compressed in blocks of many records. A record read alone
 * costs inflating the block around it and the block's dictionary, about 56 KB whatever the
 * record's size: a fifth of a one-series query's CPU on P4. Records read together cost inflating
 * every block they reach: 69 % of a {@code rate} over 1,000 counters among 10,000 series
 * (docs/benchmarks.md). Dashboards ask the same records at every refresh, and Solr's own document
 * cache is no help there: it belongs to a searcher, and the server opens a new one every second
 * while it ingests. Segments never change, so entries are keyed by the segment's core and the
 * document's number in it, survive new searchers, and are dropped when their segment closes
 * (after a merge). A deleted record keeps its entry until then, but no query matches it.
 *
 * <p>A record read without its blob (its statistics answer) is kept apart, as its other fields
 * only: read alone from doc values it costs opening every column and inflating a block of each
 * text column's terms, half of a {@code max} over a whole series that a dashboard asks again at
 * every refresh.
 *
 * <p>The blocks of a record's blob that a query over a range decoded whole (those inside the range,
 * and for statistics over a range also the two it cuts) are kept beside the records, up to a
 * quarter more of the bound: the next refresh of a dashboard copies them instead of decoding them
 * ({@link KeptBlocks}). They are keyed as their record is and
 * go with their segment.
 *
 * <p>Entries are shared between requests and must not be changed.
 */
public final class RecordCache {

  /** A cache that keeps nothing. */
  public static final RecordCache NONE = new RecordCache(0);

  /** One cache per size for the whole JVM: the cores of a node (shards, replicas) share it. */
  private static final Map<Long, RecordCache> SHARED = new ConcurrentHashMap<>();

  /**
   * An entry of record {@code doc} of the segment {@code core}: in the records' cache, {@code part}
   * says whether it holds the whole record (1) or its fields but the blob (0); in the blocks' cache,
   * which decoded block it holds.
   */
  private record Key(Object core, int doc, int part) {
    // written out: a record's generated equals and hashCode run through method handles, which the
    // quick compiler does not inline (1.2 % of a one-hour max's CPU, perf, docs/benchmarks.md)
    @Override
    public boolean equals(Object other) {
      return other instanceof Key key && key.core == core && key.doc == doc && key.part == part;
    }

    @Override
    public int hashCode() {
      return (System.identityHashCode(core) * 31 + doc) * 31 + part;
    }
  }

  private final Cache<Key, ReadRecord> records;
  private final Cache<Key, KeptBlocks.DecodedBlock> blocks;
  /** Cores whose records may be cached: their entries go when they close. */
  private final SegmentCores<Boolean> watchedCores = new SegmentCores<>((core, watched) -> dropCore(core));

  /** @param maxBytes the bound on the cached records' estimated size; 0 keeps nothing */
  public RecordCache(long maxBytes) {
    if (maxBytes < 0) {
      throw new IllegalArgumentException("record cache size must not be negative: " + maxBytes);
    }
    records = maxBytes == 0 ? null : bounded(maxBytes, ReadRecord::bytes);
    blocks = maxBytes == 0 ? null : bounded(Math.max(1, maxBytes / 4), KeptBlocks.DecodedBlock::bytes);
  }

  /** A cache of at most {@code maxBytes} by its entries' estimates, evicting in the caller's thread. */
  private static <K, V> Cache<K, V> bounded(long maxBytes, ToLongFunction<V> bytes) {
    return Caffeine.newBuilder().maximumWeight(maxBytes)
        .weigher((K key, V value) -> (int) Math.min(Integer.MAX_VALUE, bytes.applyAsLong(value)))
        .executor(Runnable::run).build();
  }

  /**
   * The JVM's cache of this size, made on first use; the cores of a node share it, so a node of
   * many cores keeps at most this much per size configured.
   */
  public static RecordCache shared(long maxBytes) {
    return maxBytes == 0 ? NONE : SHARED.computeIfAbsent(maxBytes, RecordCache::new);
  }

  /** The record {@code doc} of the segment, or null where it is not cached (or the segment cannot be keyed). */
  ReadRecord get(LeafReader segment, int doc) {
    return get(segment, doc, true);
  }

  /** The record {@code doc} of the segment without its blob, or null where it is not cached. */
  ReadRecord getWithoutBlob(LeafReader segment, int doc) {
    return get(segment, doc, false);
  }

  /** Keeps a record of the segment read with all its stored fields. */
  void put(LeafReader segment, int doc, ReadRecord record) {
    put(segment, doc, record, true);
  }

  /** Keeps a record of the segment read with all its stored fields but the blob. */
  void putWithoutBlob(LeafReader segment, int doc, ReadRecord record) {
    put(segment, doc, record, false);
  }

  private ReadRecord get(LeafReader segment, int doc, boolean withBlob) {
    Object core = coreOf(segment);
    return core == null ? null : records.getIfPresent(new Key(core, doc, withBlob ? 1 : 0));
  }

  private void put(LeafReader segment, int doc, ReadRecord record, boolean withBlob) {
    Object core = watchedCoreOf(segment);
    if (core != null) {
      records.put(new Key(core, doc, withBlob ? 1 : 0), record);
    }
  }

  /**
   * Where the decoded blocks of the segment's records are kept, by record number; {@link
   * KeptBlocks#NONE} for every record where the segment's records are not cached.
   */
  IntFunction<KeptBlocks> blocksOf(LeafReader segment) {
    Object core = watchedCoreOf(segment);
    return core == null ? doc -> KeptBlocks.NONE : doc -> new RecordBlocks(core, doc);
  }

  /** The segment's key where its records may be cached (it is watched from now on), else null. */
  private Object watchedCoreOf(LeafReader segment) {
    Object core = coreOf(segment);
    if (core == null || watchedCores.get(segment, key -> Boolean.TRUE) == null) {
      return null; // a reader that cannot tell when it closes is not cached
    }
    return core;
  }

  /** The decoded blocks of one cached record. */
  private final class RecordBlocks implements KeptBlocks {
    private final Object core;
    private final int doc;

    RecordBlocks(Object core, int doc) {
      this.core = core;
      this.doc = doc;
    }

    @Override
    public DecodedBlock get(int block) {
      return blocks.getIfPresent(new Key(core, doc, block));
    }

    @Override
    public void keep(int block, DecodedBlock points) {
      blocks.put(new Key(core, doc, block), points);
    }
  }

  /** Cached records, after pending evictions: for tests and metrics. */
  long size() {
    return count(records);
  }

  /** Kept decoded blocks, after pending evictions: for tests. */
  long blockCount() {
    return count(blocks);
  }

  /** The kept decoded blocks' estimated bytes, after pending evictions. */
  long blockBytes() {
    return weight(blocks);
  }

  /** The cached records' estimated bytes, after pending evictions. */
  long bytes() {
    return weight(records);
  }

  private static long count(Cache<?, ?> cache) {
    if (cache == null) {
      return 0;
    }
    cache.cleanUp();
    return cache.estimatedSize();
  }

  private static long weight(Cache<?, ?> cache) {
    if (cache == null) {
      return 0;
    }
    cache.cleanUp();
    return cache.policy().eviction().map(e -> e.weightedSize().orElse(0L)).orElse(0L);
  }

  private Object coreOf(LeafReader segment) {
    if (records == null) {
      return null;
    }
    return SegmentCores.keyOf(segment);
  }

  private void dropCore(IndexReader.CacheKey core) {
    records.asMap().keySet().removeIf(key -> key.core() == core);
    blocks.asMap().keySet().removeIf(key -> key.core() == core);
  }
}
