package io.chronix.ingest.protocol;

/**
 * A request body that cannot be read at all: not gzip, not JSON, not snappy/protobuf, the wrong
 * top-level shape, or too large. Nothing of it may be stored; points a parser delivered before
 * noticing must be discarded by the caller. Carries the HTTP status that says why.
 */
public final class MalformedBodyException extends Exception {

  private final int status;

  public MalformedBodyException(String message) {
    this(400, message, null);
  }

  public MalformedBodyException(String message, Throwable cause) {
    this(400, message, cause);
  }

  private MalformedBodyException(int status, String message, Throwable cause) {
    super(message, cause);
    this.status = status;
  }

  /** Refused for its size (413), before or after decompression. */
  public static MalformedBodyException tooLarge(String message) {
    return new MalformedBodyException(413, message, null);
  }

  /** Not read for want of memory right now (503): nothing stored, the client retries. */
  public static MalformedBodyException busy(String message) {
    return new MalformedBodyException(503, message, null);
  }

  /** An encoding or format this endpoint does not speak (415). */
  public static MalformedBodyException unsupported(String message) {
    return new MalformedBodyException(415, message, null);
  }

  public int status() {
    return status;
  }
}
