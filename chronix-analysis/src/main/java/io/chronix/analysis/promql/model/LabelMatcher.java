package io.chronix.analysis.promql.model;

import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code name op "value"} of a selector. Regular expressions are anchored at both ends and
 * {@code .} matches newlines too, as in Prometheus 3; they run on java.util.regex, which reads
 * RE2 syntax as Prometheus writes it (named groups {@code (?P<n>...)} are translated).
 */
public final class LabelMatcher {

  public enum Type {
    EQUAL("="), NOT_EQUAL("!="), REGEX("=~"), NOT_REGEX("!~");

    private final String text;

    Type(String text) {
      this.text = text;
    }

    public String text() {
      return text;
    }
  }

  private final Type type;
  private final String name;
  private final String value;
  private final Pattern pattern;

  private LabelMatcher(Type type, String name, String value, Pattern pattern) {
    this.type = type;
    this.name = name;
    this.value = value;
    this.pattern = pattern;
  }

  /** @throws IllegalArgumentException for a regular expression that does not compile */
  public static LabelMatcher of(Type type, String name, String value) {
    Pattern pattern = null;
    if (type == Type.REGEX || type == Type.NOT_REGEX) {
      pattern = compile(value);
    }
    return new LabelMatcher(type, name, value, pattern);
  }

  public static LabelMatcher equal(String name, String value) {
    return of(Type.EQUAL, name, value);
  }

  /** The anchored, dot-all pattern Prometheus makes of a regex matcher's value. */
  public static Pattern compile(String regex) {
    try {
      return Pattern.compile("(?:" + regex.replace("(?P<", "(?<") + ")", Pattern.DOTALL);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException("invalid regular expression \"" + regex + "\": " + e.getDescription(), e);
    }
  }

  public Type type() {
    return type;
  }

  public String name() {
    return name;
  }

  public String value() {
    return value;
  }

  /** The compiled pattern of a regex matcher, else null. */
  public Pattern pattern() {
    return pattern;
  }

  /** Whether a label value (empty for a missing label) satisfies this matcher. */
  public boolean matches(String labelValue) {
    switch (type) {
      case EQUAL:
        return value.equals(labelValue);
      case NOT_EQUAL:
        return !value.equals(labelValue);
      case REGEX:
        return pattern.matcher(labelValue).matches();
      default:
        return !pattern.matcher(labelValue).matches();
    }
  }

  public boolean matches(Labels labels) {
    return matches(labels.get(name));
  }

  /** Whether a series without this label passes: the matcher accepts the empty value. */
  public boolean matchesEmpty() {
    return matches("");
  }

  /** In PromQL syntax: {@code job=~"api.*"}, the name quoted where it is no plain identifier. */
  @Override
  public String toString() {
    return (isIdentifier(name) ? name : quote(name)) + type.text + quote(value);
  }

  private static boolean isIdentifier(String name) {
    if (name.isEmpty()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && c >= '0' && c <= '9'))) {
        return false;
      }
    }
    return true;
  }

  static String quote(String value) {
    StringBuilder text = new StringBuilder("\"");
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '"' || c == '\\') {
        text.append('\\');
      }
      if (c == '\n') {
        text.append("\\n");
      } else {
        text.append(c);
      }
    }
    return text.append('"').toString();
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof LabelMatcher)) {
      return false;
    }
    LabelMatcher that = (LabelMatcher) other;
    return type == that.type && name.equals(that.name) && value.equals(that.value);
  }

  @Override
  public int hashCode() {
    return (type.hashCode() * 31 + name.hashCode()) * 31 + value.hashCode();
  }
}
