package io.chronix.ingest.pipeline;

/**
 * A batch would make more series active than buffer.maxSeries allows: answered 429, nothing of it
 * stored. Series stop being active once they have been idle for buffer.releaseIdleAfter.
 */
public final class TooManySeriesException extends OverloadedException {

  public TooManySeriesException(String message, int retryAfterSeconds) {
    super(message, retryAfterSeconds);
  }
}
