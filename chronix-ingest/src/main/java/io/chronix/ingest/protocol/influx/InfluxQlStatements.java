package io.chronix.ingest.protocol.influx;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits InfluxQL text into statements and their words: statements end at {@code ;}, words at
 * blanks; double-quoted identifiers and single-quoted strings are single words (without quotes),
 * a backslash escapes inside them. Enough for the handshake statements, which have no expressions.
 */
final class InfluxQlStatements {

  private InfluxQlStatements() {}

  static List<List<String>> parse(String text) {
    List<List<String>> statements = new ArrayList<>();
    List<String> words = new ArrayList<>();
    StringBuilder word = null;
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '"' || c == '\'') {
        int end = i + 1;
        StringBuilder quoted = new StringBuilder();
        while (end < text.length() && text.charAt(end) != c) {
          if (text.charAt(end) == '\\' && end + 1 < text.length()) {
            end++;
          }
          quoted.append(text.charAt(end++));
        }
        if (end >= text.length()) {
          throw new IllegalArgumentException("unterminated " + (c == '"' ? "identifier" : "string") + " at " + i);
        }
        words.add(quoted.toString());
        word = null;
        i = end + 1;
        continue;
      }
      if (c == ';' || Character.isWhitespace(c)) {
        word = null;
        if (c == ';' && !words.isEmpty()) {
          statements.add(words);
          words = new ArrayList<>();
        }
        i++;
        continue;
      }
      if (word == null) {
        word = new StringBuilder();
        words.add("");
      }
      word.append(c);
      words.set(words.size() - 1, word.toString());
      i++;
    }
    if (!words.isEmpty()) {
      statements.add(words);
    }
    if (statements.isEmpty()) {
      throw new IllegalArgumentException("no statement");
    }
    return statements;
  }
}
