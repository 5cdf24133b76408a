package io.chronix.ingest.protocol.prometheus;

/**
 * A remote write body that yields no time series at all: not snappy, not a WriteRequest, or too
 * large. Unlike a bad series, which is reported and skipped, this rejects the whole request.
 */
public final class UnreadableBodyException extends Exception {

  private final boolean tooLarge;

  private UnreadableBodyException(String message, boolean tooLarge, Throwable cause) {
    super(message, cause);
    this.tooLarge = tooLarge;
  }

  static UnreadableBodyException malformed(String message, Throwable cause) {
    return new UnreadableBodyException(message, false, cause);
  }

  static UnreadableBodyException tooLarge(String message) {
    return new UnreadableBodyException(message, true, null);
  }

  /** True when the body was refused for its size (HTTP 413), not for its content (400). */
  public boolean tooLarge() {
    return tooLarge;
  }
}
