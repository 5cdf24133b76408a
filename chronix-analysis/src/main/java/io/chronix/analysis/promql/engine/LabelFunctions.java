package io.chronix.analysis.promql.engine;

import io.chronix.analysis.promql.model.LabelMatcher;
import io.chronix.analysis.promql.model.Labels;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** label_replace, label_join and the natural order of sort_by_label. */
final class LabelFunctions {

  private LabelFunctions() {}

  static Pattern replacePattern(String regex) {
    try {
      return LabelMatcher.compile(regex);
    } catch (IllegalArgumentException e) {
      throw PromQlException.execution("invalid regular expression in label_replace(): " + regex);
    }
  }

  /** The labels after label_replace, or the same labels when the source does not match. */
  static Labels replace(Labels labels, String destination, String replacement, String source, Pattern pattern) {
    Matcher matcher = pattern.matcher(labels.get(source));
    if (!matcher.matches()) {
      return labels;
    }
    return labels.toBuilder().set(destination, expand(replacement, matcher)).build();
  }

  static Labels join(Labels labels, String destination, String separator, List<String> sources) {
    StringBuilder joined = new StringBuilder();
    for (int i = 0; i < sources.size(); i++) {
      if (i > 0) {
        joined.append(separator);
      }
      joined.append(labels.get(sources.get(i)));
    }
    return labels.toBuilder().set(destination, joined.toString()).build();
  }

  /**
   * Go's regexp template expansion: {@code $1}, {@code ${1}}, {@code $name}, {@code ${name}} and
   * {@code $$}; a name is the longest run of letters, digits and underscores, and a group that
   * does not exist expands to nothing.
   */
  static String expand(String template, Matcher matcher) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < template.length()) {
      char c = template.charAt(i);
      if (c != '$' || i + 1 >= template.length()) {
        out.append(c);
        i++;
        continue;
      }
      char next = template.charAt(i + 1);
      if (next == '$') {
        out.append('$');
        i += 2;
        continue;
      }
      String name;
      int end;
      if (next == '{') {
        int close = template.indexOf('}', i + 2);
        if (close < 0 || close == i + 2 || !isName(template.substring(i + 2, close))) {
          out.append(c);
          i++;
          continue;
        }
        name = template.substring(i + 2, close);
        end = close + 1;
      } else {
        end = i + 1;
        while (end < template.length() && isNameChar(template.charAt(end))) {
          end++;
        }
        if (end == i + 1) {
          out.append(c);
          i++;
          continue;
        }
        name = template.substring(i + 1, end);
      }
      out.append(group(matcher, name));
      i = end;
    }
    return out.toString();
  }

  private static String group(Matcher matcher, String name) {
    String value = null;
    if (name.chars().allMatch(Character::isDigit)) {
      try {
        int index = Integer.parseInt(name);
        if (index <= matcher.groupCount()) {
          value = matcher.group(index);
        }
      } catch (NumberFormatException tooLarge) {
        value = null;
      }
    } else {
      try {
        value = matcher.group(name);
      } catch (IllegalArgumentException noSuchGroup) {
        value = null;
      }
    }
    return value == null ? "" : value;
  }

  private static boolean isName(String text) {
    return text.chars().allMatch(ch -> isNameChar((char) ch));
  }

  private static boolean isNameChar(char c) {
    return c == '_' || Character.isLetterOrDigit(c);
  }

  /** Natural order: runs of digits compare as numbers, everything else character by character. */
  static final Comparator<String> NATURAL = (a, b) -> {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      char ca = a.charAt(i);
      char cb = b.charAt(j);
      if (Character.isDigit(ca) && Character.isDigit(cb)) {
        int si = i;
        int sj = j;
        while (i < a.length() && Character.isDigit(a.charAt(i))) {
          i++;
        }
        while (j < b.length() && Character.isDigit(b.charAt(j))) {
          j++;
        }
        String na = a.substring(si, i).replaceFirst("^0+(?=.)", "");
        String nb = b.substring(sj, j).replaceFirst("^0+(?=.)", "");
        int c = na.length() != nb.length() ? Integer.compare(na.length(), nb.length()) : na.compareTo(nb);
        if (c != 0) {
          return c;
        }
      } else {
        if (ca != cb) {
          return Character.compare(ca, cb);
        }
        i++;
        j++;
      }
    }
    return Integer.compare(a.length() - i, b.length() - j);
  };
}
