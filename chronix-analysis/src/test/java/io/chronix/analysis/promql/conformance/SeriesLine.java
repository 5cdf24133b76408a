package io.chronix.analysis.promql.conformance;

import io.chronix.analysis.promql.model.LabelMatcher;
import io.chronix.analysis.promql.model.Labels;
import io.chronix.analysis.promql.parser.PromQlParser;
import io.chronix.analysis.promql.ast.VectorSelector;
import java.util.ArrayList;
import java.util.List;

/**
 * One series line of a test script: {@code metric{a="b"} 0+10x5 _ stale NaN {{schema:0 ...}}},
 * expanded as promtool does: {@code a+bxn} gives n+1 values, {@code _xn} n missing ones.
 */
final class SeriesLine {

  private SeriesLine() {}

  static TestScript.SeriesData parse(String line) {
    int end = descriptorEnd(line);
    String descriptor = line.substring(0, end).trim();
    String values = line.substring(end).trim();
    return new TestScript.SeriesData(labels(descriptor), values(values));
  }

  private static int descriptorEnd(String line) {
    int i = 0;
    while (i < line.length() && !Character.isWhitespace(line.charAt(i)) && line.charAt(i) != '{') {
      i++;
    }
    if (i < line.length() && line.charAt(i) == '{') {
      boolean quoted = false;
      char quote = 0;
      for (; i < line.length(); i++) {
        char c = line.charAt(i);
        if (quoted) {
          if (c == '\\') {
            i++;
          } else if (c == quote) {
            quoted = false;
          }
        } else if (c == '"' || c == '\'' || c == '`') {
          quoted = true;
          quote = c;
        } else if (c == '}') {
          return i + 1;
        }
      }
    }
    return i;
  }

  static Labels labels(String descriptor) {
    if (descriptor.equals("{}") || descriptor.isEmpty()) {
      return Labels.EMPTY;
    }
    VectorSelector selector = PromQlParser.parseSelector(descriptor);
    Labels.Builder builder = new Labels.Builder();
    for (LabelMatcher matcher : selector.matchers()) {
      builder.set(matcher.name(), matcher.value());
    }
    return builder.build();
  }

  static List<TestScript.SampleValue> values(String text) {
    List<TestScript.SampleValue> values = new ArrayList<>();
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
        continue;
      }
      if (text.startsWith("{{", i)) {
        // {{...}}, {{...}}xN, {{...}}+{{...}}xN: native histograms, only counted
        i = text.indexOf("}}", i) + 2;
        if (i + 2 < text.length() && (text.charAt(i) == '+' || text.charAt(i) == '-') && text.startsWith("{{", i + 1)) {
          i = text.indexOf("}}", i + 1) + 2;
        }
        int repeat = 1;
        if (i < text.length() && text.charAt(i) == 'x') {
          int end = i + 1;
          while (end < text.length() && Character.isDigit(text.charAt(end))) {
            end++;
          }
          repeat = Integer.parseInt(text.substring(i + 1, end)) + 1;
          i = end;
        }
        for (int k = 0; k < repeat; k++) {
          values.add(new TestScript.SampleValue(Double.NaN, false, true));
        }
        continue;
      }
      int end = i;
      while (end < text.length() && !Character.isWhitespace(text.charAt(end))) {
        end++;
      }
      expand(text.substring(i, end), values);
      i = end;
    }
    return values;
  }

  private static void expand(String token, List<TestScript.SampleValue> values) {
    if (token.equals("_")) {
      values.add(null);
      return;
    }
    if (token.equals("stale")) {
      values.add(new TestScript.SampleValue(Double.NaN, true, false));
      return;
    }
    int x = token.lastIndexOf('x');
    if (x > 0 && token.substring(x + 1).matches("\\d+")) {
      int n = Integer.parseInt(token.substring(x + 1));
      String head = token.substring(0, x);
      if (head.equals("_")) {
        for (int k = 0; k < n; k++) {
          values.add(null);
        }
        return;
      }
      if (head.equals("stale")) {
        for (int k = 0; k <= n; k++) {
          values.add(new TestScript.SampleValue(Double.NaN, true, false));
        }
        return;
      }
      int sign = signPosition(head);
      double start = number(sign < 0 ? head : head.substring(0, sign));
      double increment = sign < 0 ? 0 : number(head.substring(sign));
      double value = start;
      for (int k = 0; k <= n; k++) {
        values.add(new TestScript.SampleValue(value, false, false));
        value += increment;
      }
      return;
    }
    values.add(new TestScript.SampleValue(number(token), false, false));
  }

  /** The position of the + or - that starts the increment in "a+b" or "-a-b" (not an exponent's). */
  private static int signPosition(String head) {
    for (int i = 1; i < head.length(); i++) {
      char c = head.charAt(i);
      if ((c == '+' || c == '-') && head.charAt(i - 1) != 'e' && head.charAt(i - 1) != 'E') {
        return i;
      }
    }
    return -1;
  }

  static boolean isNumber(String token) {
    try {
      number(token);
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  static double number(String token) {
    switch (token.toLowerCase(java.util.Locale.ROOT)) {
      case "nan":
        return Double.NaN;
      case "inf":
      case "+inf":
        return Double.POSITIVE_INFINITY;
      case "-inf":
        return Double.NEGATIVE_INFINITY;
      default:
        if (token.matches("[+-]?0[xX][0-9a-fA-F]+")) {
          return Long.decode(token);
        }
        return Double.parseDouble(token);
    }
  }
}
