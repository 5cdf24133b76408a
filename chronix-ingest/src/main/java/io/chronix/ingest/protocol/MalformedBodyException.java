package io.chronix.ingest.protocol;

/**
 * A request body that cannot be read at all (not JSON, wrong top-level shape). Nothing of it may
 * be stored; points its parser delivered before noticing must be discarded by the caller.
 */
public final class MalformedBodyException extends Exception {

  public MalformedBodyException(String message) {
    super(message);
  }
}
