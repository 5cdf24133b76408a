package io.chronix.core.chunk;

import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.record.Record;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import java.util.ArrayList;
import java.util.List;

/** Cuts the sorted points of one series into records of at most {@code maxPoints} points. */
public final class Chunker {

  private final int maxPoints;
  private final ChunkCodec codec;

  public Chunker(int maxPoints, ChunkCodec codec) {
    if (maxPoints < 1) {
      throw new IllegalArgumentException("chunk size must be at least one point: " + maxPoints);
    }
    this.maxPoints = maxPoints;
    this.codec = codec;
  }

  public int maxPoints() {
    return maxPoints;
  }

  /** The points of each record {@link #chunk} makes of them, in the same order. */
  public static List<Points> slices(Points sortedPoints, int maxPoints) {
    List<Points> slices = new ArrayList<>(sortedPoints.size() / maxPoints + 1);
    for (int from = 0; from < sortedPoints.size(); from += maxPoints) {
      slices.add(sortedPoints.slice(from, Math.min(sortedPoints.size(), from + maxPoints)));
    }
    return slices;
  }

  public List<Record> chunk(SeriesKey key, Points sortedPoints) {
    List<Points> slices = slices(sortedPoints, maxPoints);
    List<Record> records = new ArrayList<>(slices.size());
    for (Points slice : slices) {
      records.add(Record.encode(key, slice, codec));
    }
    return records;
  }
}
