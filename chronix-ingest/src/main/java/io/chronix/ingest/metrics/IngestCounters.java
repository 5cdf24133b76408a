package io.chronix.ingest.metrics;

import io.chronix.ingest.pipeline.BatchWriter;
import io.chronix.ingest.pipeline.PointsRejectedException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Points acknowledged per protocol since the start, for {@code /metrics} and the console's rates.
 * Each protocol's endpoint writes through {@link #counting}, so a point counts once it is logged
 * and buffered (or, on a node among several, taken by its owner).
 */
public final class IngestCounters {

  private final Map<String, LongAdder> points = new ConcurrentHashMap<>();

  /** The writer a protocol's endpoint uses: the same writes, counted under the protocol's name. */
  public BatchWriter counting(String protocol, BatchWriter writer) {
    LongAdder counter = points.computeIfAbsent(protocol, name -> new LongAdder());
    return batch -> {
      try {
        writer.write(batch);
      } catch (PointsRejectedException e) {
        counter.add(e.stored()); // the rest of a partly refused batch was stored and counts
        throw e;
      }
      counter.add(batch.size());
    };
  }

  /** Protocol name to points acknowledged, sorted by name. */
  public Map<String, Long> snapshot() {
    Map<String, Long> copy = new TreeMap<>();
    points.forEach((protocol, counter) -> copy.put(protocol, counter.sum()));
    return copy;
  }
}
