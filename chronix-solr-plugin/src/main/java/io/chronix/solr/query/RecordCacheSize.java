package io.chronix.solr.query;

import java.util.Locale;

/**
 * The record cache's bound from the configset's {@code recordCacheMB}: whole megabytes, or
 * {@code auto}, a sixth of the JVM's heap.
 *
 * <p>A sixth: a dashboard's {@code topk} over 10,000 series of a day each reads some 55 MB of
 * records, which a fixed 32 MB could not keep, so every refresh inflated them all again (twice
 * the time, docs/benchmarks.md); with the launcher's 384 MB heap a sixth keeps them. The
 * server's other bounded users of the heap stay within theirs (buffers a third, request bodies a
 * quarter), and a larger heap keeps proportionally more.
 */
public final class RecordCacheSize {

  public static final String AUTO = "auto";
  private static final long HEAP_SHARE = 6;
  /** Where the JVM reports no heap limit. */
  private static final long UNBOUNDED_HEAP_BYTES = 64L << 20;

  private RecordCacheSize() {}

  /** A sixth of this JVM's maximum heap, in bytes. */
  public static long auto() {
    return ofHeap(Runtime.getRuntime().maxMemory());
  }

  static long ofHeap(long maxHeapBytes) {
    return maxHeapBytes == Long.MAX_VALUE ? UNBOUNDED_HEAP_BYTES : maxHeapBytes / HEAP_SHARE;
  }

  /**
   * The bound in bytes.
   *
   * @throws IllegalArgumentException unless the setting is {@code auto} or whole megabytes, 0 or more
   */
  public static long parse(String setting) {
    String value = setting.trim();
    if (value.toLowerCase(Locale.ROOT).equals(AUTO)) {
      return auto();
    }
    long mb;
    try {
      mb = Long.parseLong(value);
    } catch (NumberFormatException e) {
      mb = -1;
    }
    if (mb < 0 || mb > (Long.MAX_VALUE >> 20)) {
      throw new IllegalArgumentException("recordCacheMB must be 'auto' or a whole number of megabytes, 0 or more, not '"
          + setting + "'");
    }
    return mb << 20;
  }
}
