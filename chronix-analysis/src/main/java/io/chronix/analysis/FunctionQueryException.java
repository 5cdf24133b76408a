package io.chronix.analysis;

/**
 * A function query that cannot be parsed or whose arguments make no sense. Raised at parse time so
 * that a bad request fails before any series is read; the message names the function and the
 * problem because it is shown to the user as is.
 */
public class FunctionQueryException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  public FunctionQueryException(String message) {
    super(message);
  }
}
