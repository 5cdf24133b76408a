package io.chronix.ingest.buffer;

import io.chronix.core.chunk.Chunker;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.store.RecordStore;
import java.io.IOException;

/** Sorts a drained buffer (last write wins on equal timestamps), chunks it and stores it. */
public final class RecordSink implements ChunkSink {

  private final Chunker chunker;
  private final RecordStore store;

  public RecordSink(Chunker chunker, RecordStore store) {
    this.chunker = chunker;
    this.store = store;
  }

  @Override
  public void accept(SeriesKey key, Points points) throws IOException {
    points.sortAndDeduplicate();
    store.write(chunker.chunk(key, points));
  }
}
