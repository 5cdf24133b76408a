package io.chronix.ingest.protocol;

/** A rejected line: its 1-based number and what is wrong with it. */
public record LineError(int line, String problem) {

  @Override
  public String toString() {
    return "line " + line + ": " + problem;
  }
}
