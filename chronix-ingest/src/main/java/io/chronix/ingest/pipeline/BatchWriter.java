package io.chronix.ingest.pipeline;

import java.io.IOException;

/**
 * Stores a batch durably: when {@link #write} returns, the batch is in the write-ahead log (as the
 * fsync policy promises) and in the series buffers, and may be acknowledged to the client.
 */
@FunctionalInterface
public interface BatchWriter {

  /**
   * @throws OverloadedException when the buffers' memory budget is used up (nothing was stored;
   *     HTTP answers 503 with Retry-After, socket readers wait and retry)
   */
  void write(PointBatch batch) throws IOException;
}
