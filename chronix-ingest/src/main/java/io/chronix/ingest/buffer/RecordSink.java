package io.chronix.ingest.buffer;

import io.chronix.core.chunk.Chunker;
import io.chronix.core.record.Record;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.ValueType;
import io.chronix.ingest.rollup.RollupStore;
import io.chronix.ingest.semantic.SemanticRule;
import io.chronix.ingest.semantic.SemanticRules;
import io.chronix.ingest.store.RecordStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Sorts a drained buffer (last write wins on equal timestamps), applies the semantic compression
 * rule of its series if one matches, chunks it and stores it.
 */
public final class RecordSink implements ChunkSink {

  private final Chunker chunker;
  private final SemanticRules rules;
  private final RecordStore store;
  /** Null without rollup tiers. */
  private final RollupStore rollups;

  public RecordSink(Chunker chunker, SemanticRules rules, RecordStore store) {
    this(chunker, rules, store, null);
  }

  public RecordSink(Chunker chunker, SemanticRules rules, RecordStore store, RollupStore rollups) {
    this.chunker = chunker;
    this.rules = rules;
    this.store = store;
    this.rollups = rollups;
  }

  @Override
  public Points accept(SeriesKey key, Points points) throws IOException {
    List<Record> records = new ArrayList<>();
    List<Points> slices = new ArrayList<>();
    Points stored = toRecords(key, points, records, slices);
    write(records, slices);
    return stored;
  }

  @Override
  public List<Points> acceptAll(List<SeriesKey> keys, List<Points> points) throws IOException {
    List<Record> records = new ArrayList<>();
    List<Points> slices = new ArrayList<>();
    List<Points> stored = new ArrayList<>(keys.size());
    for (int i = 0; i < keys.size(); i++) {
      stored.add(toRecords(keys.get(i), points.get(i), records, slices));
    }
    write(records, slices);
    return stored;
  }

  /** The records, then their rollups: a rollup never describes a record that is not there. */
  private void write(List<Record> records, List<Points> slices) throws IOException {
    long[] orders = store.write(records);
    if (rollups != null) {
      rollups.written(records, slices, orders);
    }
  }

  /** Adds the records of one series' points; returns the points as they will be stored. */
  private Points toRecords(SeriesKey key, Points points, List<Record> records, List<Points> slices) {
    points.sortAndDeduplicate();
    Optional<SemanticRule> rule = rules.ruleFor(key.name());
    // rounding and aggregating are about measurements: other value types keep their points
    Points stored = rule.isPresent() && points.type() == ValueType.DOUBLE ? rule.get().apply(points) : points;
    Chunker cutter = rule.isPresent() ? rule.get().chunker() : chunker;
    Chunker.Cut cut = cutter.cut(key, stored);
    records.addAll(cut.records());
    slices.addAll(cut.slices());
    return stored;
  }
}
