package io.chronix.solr.query;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;

/**
 * State kept per segment core while the core is open: made on first use, dropped when Lucene
 * closes the core (a merge or a new searcher let go of it), with a call to give back what it
 * held. The one place that watches cores close, for {@link OrdinalTexts} and {@link RecordCache}.
 * A segment that cannot tell when its core closes keeps nothing: its state would never be
 * dropped. Thread-safe: a core's state once made is found without a lock (record reads ask for
 * it on every cache put); making it and registering the listener take this object's lock. The
 * drop call runs outside that lock, but for a core found closed already while its state is made:
 * that state is dropped at once, in the caller's thread.
 *
 * @param <T> what is kept for a core
 */
final class SegmentCores<T> {

  private final Map<IndexReader.CacheKey, T> kept = new ConcurrentHashMap<>();
  private final BiConsumer<IndexReader.CacheKey, T> onDrop;

  /** @param onDrop called once for each core's state when the core closes */
  SegmentCores(BiConsumer<IndexReader.CacheKey, T> onDrop) {
    this.onDrop = onDrop;
  }

  /** The core's key, or null where the segment cannot be keyed. */
  static IndexReader.CacheKey keyOf(LeafReader segment) {
    IndexReader.CacheHelper helper = segment.getCoreCacheHelper();
    return helper == null ? null : helper.getKey();
  }

  /**
   * The state of the segment's core, made with {@code make} on first use; null where the segment
   * cannot tell when its core closes, or its core is closed already.
   */
  T get(LeafReader segment, Function<IndexReader.CacheKey, T> make) {
    IndexReader.CacheHelper helper = segment.getCoreCacheHelper();
    if (helper == null) {
      return null;
    }
    T state = kept.get(helper.getKey());
    return state != null ? state : make(helper, make);
  }

  private synchronized T make(IndexReader.CacheHelper helper, Function<IndexReader.CacheKey, T> make) {
    IndexReader.CacheKey core = helper.getKey();
    T state = kept.get(core);
    if (state != null) {
      return state;
    }
    state = make.apply(core);
    kept.put(core, state); // before the listener: one that runs at once (closed already) finds it
    try {
      helper.addClosedListener(this::drop);
    } catch (RuntimeException e) {
      kept.remove(core);
      return null;
    }
    return kept.get(core) == state ? state : null;
  }

  /** The state kept for the segment's core, or null where none is. */
  T peek(LeafReader segment) {
    IndexReader.CacheKey core = keyOf(segment);
    return core == null ? null : kept.get(core);
  }

  private void drop(IndexReader.CacheKey core) {
    T state = kept.remove(core);
    if (state != null) {
      onDrop.accept(core, state);
    }
  }
}
