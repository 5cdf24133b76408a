package io.chronix.ingest.pipeline;

import java.io.IOException;

/**
 * Some points of a batch were refused for what they are (older than their retention), the others
 * stored: the client is told (400), and resending would not help.
 */
public class PointsRejectedException extends IOException {

  public PointsRejectedException(String message) {
    super(message);
  }
}
