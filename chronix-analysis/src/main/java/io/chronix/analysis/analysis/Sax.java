package io.chronix.analysis.analysis;

import io.chronix.analysis.Analysis;
import io.chronix.analysis.AnalysisResult;
import io.chronix.analysis.References;
import io.chronix.analysis.aggregation.Samples;
import io.chronix.core.series.Points;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * sax: does the series have a given shape? The series is turned into a {@link SaxWord} and matched
 * against a glob-like pattern over its letters: '*' any run of letters (also none), '?' exactly
 * one letter, anything else itself; the whole word must match, case-insensitively.
 * NaN values are left out.
 */
public record Sax(
    String pattern, int paaSize, int alphabetSize, double threshold, List<String> arguments)
    implements Analysis {

  public Sax {
    if (!pattern.matches("[a-zA-Z*?]+")) {
      throw new IllegalArgumentException("pattern may only hold letters, '*' and '?': " + pattern);
    }
    if (paaSize < 1 || alphabetSize < 2 || alphabetSize > 26 || !(threshold >= 0)) {
      throw new IllegalArgumentException("need paa size >= 1, alphabet size in [2,26] and "
          + "threshold >= 0, got " + paaSize + ", " + alphabetSize + ", " + threshold);
    }
    arguments = List.copyOf(arguments);
  }

  @Override
  public String name() {
    return "sax";
  }

  /** The pattern as an anchored regular expression over lower-case letters. */
  public Pattern regex() {
    StringBuilder regex = new StringBuilder();
    for (char c : pattern.toLowerCase(Locale.ROOT).toCharArray()) {
      regex.append(c == '*' ? "[a-z]*" : c == '?' ? "[a-z]" : String.valueOf(c));
    }
    return Pattern.compile(regex.toString());
  }

  @Override
  public AnalysisResult apply(Points series, References references) {
    String word = SaxWord.of(Samples.withoutNaN(series), paaSize, alphabetSize, threshold);
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("word", word);
    return new AnalysisResult(!word.isEmpty() && regex().matcher(word).matches(), details);
  }
}
