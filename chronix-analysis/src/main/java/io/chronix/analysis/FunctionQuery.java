package io.chronix.analysis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The cf parameter: function blocks per series type, "metric{max;p:0.99};log{count}". Blocks may
 * be separated by ';'. Inside a block, ';' separates functions only outside nested braces and
 * double quotes, so that a fastdtw reference query may use Solr syntax such as
 * {!term f=name}cpu or "a;b". A type given twice gets the functions of both blocks.
 */
public final class FunctionQuery {

  private static final FunctionQuery EMPTY = new FunctionQuery(Map.of());

  private final Map<String, List<ChronixFunction>> functionsByType;
  // asked of every query's functions (a stream here was 1 % of a one-hour max's CPU)
  private final boolean empty;

  private FunctionQuery(Map<String, List<ChronixFunction>> functionsByType) {
    this.functionsByType = functionsByType;
    this.empty = functionsByType.values().stream().allMatch(List::isEmpty);
  }

  public static FunctionQuery parse(String cf) {
    if (cf == null || cf.isBlank()) {
      return EMPTY;
    }
    Map<String, List<ChronixFunction>> byType = new LinkedHashMap<>();
    int position = 0;
    while (true) {
      position = skipSeparators(cf, position);
      if (position == cf.length()) {
        break;
      }
      int open = cf.indexOf('{', position);
      int stray = cf.indexOf('}', position);
      if (stray >= 0 && (open < 0 || stray < open)) {
        throw syntax(cf, "unbalanced braces: unexpected '}' at position " + stray);
      }
      if (open < 0) {
        throw syntax(cf, "expected '{' after type '" + cf.substring(position).trim() + "'");
      }
      String type = cf.substring(position, open).trim();
      if (type.isEmpty() || type.contains(";")) {
        throw syntax(cf, "missing type before '{' at position " + open);
      }
      int close = closingBrace(cf, open);
      List<ChronixFunction> functions = byType.computeIfAbsent(type, t -> new ArrayList<>());
      for (String spec : splitFunctions(cf.substring(open + 1, close))) {
        if (spec.isBlank()) {
          throw syntax(cf, "empty function in block '" + type + "'");
        }
        functions.add(Functions.parse(spec));
      }
      position = close + 1;
    }
    Map<String, List<ChronixFunction>> frozen = new LinkedHashMap<>();
    byType.forEach((type, functions) -> frozen.put(type, List.copyOf(functions)));
    return new FunctionQuery(Collections.unmodifiableMap(frozen));
  }

  /** The functions for a series type, in the order given; empty if the type has no block. */
  public List<ChronixFunction> functionsFor(String type) {
    return functionsByType.getOrDefault(type, List.of());
  }

  /** The types that have a block, in the order given. */
  public Set<String> types() {
    return functionsByType.keySet();
  }

  public boolean isEmpty() {
    return empty;
  }

  /** The distinct reference queries of all analyses, so that they can be resolved once up front. */
  public List<String> referenceQueries() {
    Set<String> queries = new LinkedHashSet<>();
    for (List<ChronixFunction> functions : functionsByType.values()) {
      for (ChronixFunction function : functions) {
        if (function instanceof Analysis analysis) {
          queries.addAll(analysis.referenceQueries());
        }
      }
    }
    return List.copyOf(queries);
  }

  @Override
  public String toString() {
    return "FunctionQuery" + functionsByType;
  }

  private static int skipSeparators(String cf, int position) {
    while (position < cf.length()
        && (Character.isWhitespace(cf.charAt(position)) || cf.charAt(position) == ';')) {
      position++;
    }
    return position;
  }

  private static int closingBrace(String cf, int open) {
    int depth = 0;
    boolean quoted = false;
    for (int i = open; i < cf.length(); i++) {
      char c = cf.charAt(i);
      if (c == '"' && (i == 0 || cf.charAt(i - 1) != '\\')) {
        quoted = !quoted;
      } else if (!quoted && c == '{') {
        depth++;
      } else if (!quoted && c == '}' && --depth == 0) {
        return i;
      }
    }
    throw syntax(cf, "unbalanced braces: '{' at position " + open + " is never closed");
  }

  private static List<String> splitFunctions(String body) {
    List<String> specs = new ArrayList<>();
    int depth = 0;
    boolean quoted = false;
    int start = 0;
    for (int i = 0; i < body.length(); i++) {
      char c = body.charAt(i);
      if (c == '"' && (i == 0 || body.charAt(i - 1) != '\\')) {
        quoted = !quoted;
      } else if (!quoted && c == '{') {
        depth++;
      } else if (!quoted && c == '}') {
        depth--;
      } else if (!quoted && depth == 0 && c == ';') {
        specs.add(body.substring(start, i));
        start = i + 1;
      }
    }
    specs.add(body.substring(start));
    return specs;
  }

  private static FunctionQueryException syntax(String cf, String problem) {
    return new FunctionQueryException("cf '" + cf + "': " + problem);
  }
}
