package io.chronix.ingest.pipeline;

import java.io.IOException;

/** The server cannot take more points right now; nothing of the batch was stored. */
public class OverloadedException extends IOException {

  private final int retryAfterSeconds;

  public OverloadedException(String message, int retryAfterSeconds) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }

  public int retryAfterSeconds() {
    return retryAfterSeconds;
  }
}
