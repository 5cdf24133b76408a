package io.chronix.solr.query;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** A request parameter's list of field names ({@code fl}, {@code cj}): separated by commas or white space. */
public final class FieldNames {

  /** Compiled once: String.split compiles a pattern of more than one character on every call. */
  private static final Pattern SEPARATORS = Pattern.compile("[,\\s]+");

  private FieldNames() {}

  /** The names in {@code list} in their order, empty ones (separators at its ends) left out. */
  public static List<String> split(String list) {
    List<String> names = new ArrayList<>();
    for (String name : SEPARATORS.split(list)) {
      if (!name.isEmpty()) {
        names.add(name);
      }
    }
    return names;
  }
}
