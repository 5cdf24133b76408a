package io.chronix.ingest.pipeline;

import java.io.IOException;

/**
 * Some points of a batch were refused for what they are (older than their retention), the others
 * stored: the client is told (400), and resending would not help.
 */
public class PointsRejectedException extends IOException {

  private final long stored;

  /** @param stored the points of the batch that were stored nevertheless */
  public PointsRejectedException(String message, long stored) {
    super(message);
    this.stored = stored;
  }

  public long stored() {
    return stored;
  }
}
