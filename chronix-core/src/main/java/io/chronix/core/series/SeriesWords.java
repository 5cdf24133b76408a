package io.chronix.core.series;

import java.util.concurrent.ConcurrentHashMap;

/**
 * One instance of each attribute name and type name for every series key of the process. A fleet
 * repeats a small vocabulary ({@code host}, {@code job}, {@code _protocol}) in every key; parsers
 * that decode it afresh per request (remote write) would otherwise leave a copy in each of a
 * hundred thousand buffered keys, and the buffers' memory budget can count these words once
 * instead of per series. Bounded: past {@link #MAX_WORDS} distinct words (a runaway client
 * inventing label names) a word is kept as given, which costs only the sharing.
 */
public final class SeriesWords {

  static final int MAX_WORDS = 65_536;
  private static final ConcurrentHashMap<String, String> WORDS = new ConcurrentHashMap<>();

  private SeriesWords() {}

  /** The shared instance of {@code word}, or {@code word} itself once the vocabulary is full. */
  public static String shared(String word) {
    String known = WORDS.get(word);
    if (known != null) {
      return known;
    }
    if (WORDS.size() >= MAX_WORDS) {
      return word;
    }
    known = WORDS.putIfAbsent(word, word);
    return known == null ? word : known;
  }
}
