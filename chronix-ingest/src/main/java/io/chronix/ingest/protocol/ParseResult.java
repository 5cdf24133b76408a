package io.chronix.ingest.protocol;

import java.util.List;

/** What a request body yielded: points accepted and lines rejected. */
public record ParseResult(long points, List<LineError> errors) {

  public boolean hasErrors() {
    return !errors.isEmpty();
  }
}
