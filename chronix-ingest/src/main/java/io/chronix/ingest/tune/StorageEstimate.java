package io.chronix.ingest.tune;

import io.chronix.core.chunk.Chunker;
import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.codec.Compression;
import io.chronix.core.csv.P4File;
import io.chronix.core.record.Record;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.zip.Deflater;

/**
 * Estimates the bytes a set of series takes in the store for one way of cutting and compressing
 * chunks, by doing what the store does: records sorted by start (the index sort), their blobs
 * compressed with DEFLATE in blocks of neighbouring records (Lucene's BEST_COMPRESSION stored
 * fields), plus what every record costs besides its blob (id, fields, index entries).
 */
final class StorageEstimate {

  /** About what Lucene puts into one compressed block of stored fields. */
  static final int BLOCK_BYTES = 60 * 1024;
  /** Index terms, doc values and stored fields of a record besides its blob, measured on P4. */
  static final int RECORD_OVERHEAD_BYTES = 250;

  private StorageEstimate() {}

  static long bytes(List<P4File> series, int chunkPoints, Compression compression) {
    Chunker chunker = new Chunker(chunkPoints, new ChunkCodec(compression, 0));
    return bytes(series, file -> chunker);
  }

  /** With each series cut by the chunker chosen for it. */
  static long bytes(List<P4File> series, java.util.function.Function<P4File, Chunker> chunkerOf) {
    List<Record> records = new ArrayList<>();
    for (P4File file : series) {
      records.addAll(chunkerOf.apply(file).chunk(file.key(), file.points()));
    }
    records.sort(Comparator.comparingLong(Record::start));
    long total = (long) records.size() * RECORD_OVERHEAD_BYTES;
    Deflater deflater = new Deflater(6, true);
    byte[] block = new byte[BLOCK_BYTES * 2];
    byte[] out = new byte[BLOCK_BYTES * 3];
    int filled = 0;
    for (Record record : records) {
      byte[] data = record.data();
      if (filled > 0 && filled + data.length > BLOCK_BYTES) {
        total += deflate(deflater, block, filled, out);
        filled = 0;
      }
      if (data.length > block.length) {
        block = new byte[data.length];
        out = new byte[data.length + 1024];
      }
      System.arraycopy(data, 0, block, filled, data.length);
      filled += data.length;
    }
    if (filled > 0) {
      total += deflate(deflater, block, filled, out);
    }
    deflater.end();
    return total;
  }

  private static long deflate(Deflater deflater, byte[] block, int length, byte[] out) {
    deflater.reset();
    deflater.setInput(block, 0, length);
    deflater.finish();
    long size = 0;
    while (!deflater.finished()) {
      size += deflater.deflate(out);
    }
    return size;
  }
}
