package io.chronix.solr.query;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Immutable things built from a request's text, kept by their key for the next request that asks
 * the same: a dashboard sends the same few texts with every refresh. At most a fixed number is
 * kept; a flood of distinct keys starts the set again rather than grow it (nothing here is worth
 * an eviction order). Safe for concurrent requests; two of them may build the same thing at once,
 * and either is kept.
 */
public final class KeptByKey<K, V> {

  private final int max;
  private final Map<K, V> kept = new ConcurrentHashMap<>();

  /** @param max how many are kept at most */
  public KeptByKey(int max) {
    if (max < 1) {
      throw new IllegalArgumentException("at least one must be kept: " + max);
    }
    this.max = max;
  }

  /** What is kept for the key, or null. */
  public V get(K key) {
    return kept.get(key);
  }

  /** Keeps {@code value} for the key (starting the set again where it is full) and answers it. */
  public V keep(K key, V value) {
    if (kept.size() >= max) {
      kept.clear();
    }
    kept.put(key, value);
    return value;
  }

  /** How many are kept now. */
  public int size() {
    return kept.size();
  }

  public int max() {
    return max;
  }
}
