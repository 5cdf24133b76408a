package io.chronix.analysis.promql.parser;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Syntax trees by the text they were parsed from, the most recently asked kept. A dashboard sends
 * the same query text at every refresh with other times only, and Grafana's query editor the same
 * {@code match[]}: ANTLR's parse of a one-series range query was 7 % of its request on a settled
 * server (a fresh server's first requests were no faster with the trees kept). The trees are
 * immutable (records, their lists copied), so one tree serves any number of evaluations at once.
 * Texts that do not parse are not kept: each asks the parser again, for its error.
 */
final class ParsedTexts<T> {

  /** Longer texts are parsed every time: a few such would crowd out many dashboards' queries. */
  static final int MAX_CHARS = 4_096;

  private final Map<String, T> trees;

  ParsedTexts(int capacity) {
    this.trees = new LinkedHashMap<>(capacity * 2, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, T> eldest) {
        return size() > capacity;
      }
    };
  }

  /** The tree of an earlier parse of the same text, or null. */
  synchronized T get(String text) {
    return trees.get(text);
  }

  synchronized void put(String text, T tree) {
    if (text.length() <= MAX_CHARS) {
      trees.put(text, tree);
    }
  }
}
