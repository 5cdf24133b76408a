package io.chronix.benchmarks.fuzz;

/**
 * What the fuzz targets hold parsers to. An exception a target does not catch is a finding (Jazzer
 * reports it with the input): a parser may only fail the documented way, with a message that says
 * what is wrong; anything else would reach a client as a 500.
 */
final class Findings {

  private Findings() {}

  /** A documented refusal must still say what is wrong. */
  static void explained(Throwable refusal) {
    String message = refusal.getMessage();
    if (message == null || message.isBlank()) {
      throw new AssertionError("refused without saying why: " + refusal.getClass().getName(), refusal);
    }
  }

  static void check(boolean condition, String what) {
    if (!condition) {
      throw new AssertionError(what);
    }
  }
}
