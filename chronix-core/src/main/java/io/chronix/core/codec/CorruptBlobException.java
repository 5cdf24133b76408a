package io.chronix.core.codec;

/** A data blob that cannot be decoded: truncated, damaged, or of an unknown format. */
public class CorruptBlobException extends RuntimeException {

  public CorruptBlobException(String message) {
    super(message);
  }

  public CorruptBlobException(String message, Throwable cause) {
    super(message, cause);
  }
}
