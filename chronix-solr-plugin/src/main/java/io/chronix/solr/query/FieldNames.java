package io.chronix.solr.query;

import java.util.ArrayList;
import java.util.List;

/** A request parameter's list of field names ({@code fl}, {@code cj}): separated by commas or white space. */
public final class FieldNames {

  private FieldNames() {}

  /** The names in {@code list} in their order, empty ones (separators at its ends) left out. */
  public static List<String> split(String list) {
    List<String> names = new ArrayList<>();
    int start = -1;
    for (int i = 0; i <= list.length(); i++) {
      if (i == list.length() || isSeparator(list.charAt(i))) {
        if (start >= 0) {
          names.add(list.substring(start, i));
          start = -1;
        }
      } else if (start < 0) {
        start = i;
      }
    }
    return names;
  }

  /** A comma, or white space as a regex's {@code \s} matches it (ASCII only). */
  private static boolean isSeparator(char c) {
    return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
  }
}
