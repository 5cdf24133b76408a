package io.chronix.ingest.protocol;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A line-oriented protocol (Graphite plaintext, OpenTSDB telnet), parsed one line at a time so
 * that socket readers and request bodies share it. Implementations must be thread-safe: a socket
 * listener calls one instance from all its connections.
 */
@FunctionalInterface
public interface LineParser {

  /**
   * Delivers the points of one non-blank line, or, when the line is invalid, none of them.
   *
   * @param lineNumber 1-based position of the line in its body or connection
   * @throws IllegalArgumentException naming what is wrong with the line (without the line itself)
   * @throws IOException only when the sink fails
   */
  void parseLine(String line, int lineNumber, PointSink sink) throws IOException;

  /**
   * Parses a body of lines ({@code \n} or {@code \r\n}); blank lines are skipped, invalid lines
   * reported by number while the valid ones are kept.
   */
  default ParseResult parse(String text, PointSink sink) throws IOException {
    long[] points = {0};
    PointSink counting = (key, timestamp, value) -> {
      sink.accept(key, timestamp, value);
      points[0]++;
    };
    List<LineError> errors = new ArrayList<>();
    int lineNumber = 0;
    int position = 0;
    int length = text.length();
    while (position < length) {
      int end = text.indexOf('\n', position);
      if (end < 0) {
        end = length;
      }
      lineNumber++;
      String line = text.substring(position, end > position && text.charAt(end - 1) == '\r' ? end - 1 : end);
      position = end + 1;
      if (line.isBlank()) {
        continue;
      }
      try {
        parseLine(line, lineNumber, counting);
      } catch (IllegalArgumentException e) {
        errors.add(new LineError(lineNumber, describe(e, line)));
      }
    }
    return new ParseResult(points[0], errors);
  }

  /** The problem followed by the (abbreviated) line, so that a log or response shows both. */
  static String describe(IllegalArgumentException problem, String line) {
    String trimmed = line.strip();
    return problem.getMessage() + " in '" + (trimmed.length() <= 120 ? trimmed : trimmed.substring(0, 117) + "...") + "'";
  }
}
