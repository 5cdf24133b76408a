package io.chronix.benchmarks.peers;

import java.util.Map;
import java.util.TreeMap;

/**
 * One series as every server names it: our metric name and attributes, which line protocol carries
 * as measurement and tags with the field {@code value}. Spans are in epoch milliseconds.
 */
record SeriesRef(String metric, TreeMap<String, String> tags, long firstMillis, long lastMillis) {

  SeriesRef {
    tags = new TreeMap<>(tags);
  }

  static SeriesRef of(String metric, Map<String, String> tags, long firstMillis, long lastMillis) {
    return new SeriesRef(metric, new TreeMap<>(tags), firstMillis, lastMillis);
  }
}
