package io.chronix.ingest.lifecycle;

import io.chronix.ingest.config.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * How long each series is kept (docs/lifecycle.md): rules of a metric name pattern and a period,
 * the first matching rule wins, a default for the rest. A pattern is a glob on the series name
 * ({@code *} any characters, {@code ?} one). A period of {@code forever} keeps everything.
 */
public final class RetentionRules {

  /** One rule; a null period keeps the series forever. */
  public record Rule(String pattern, Duration period) {

    boolean matches(String name) {
      return regex(pattern).matcher(name).matches();
    }

    String describe() {
      return (pattern.equals("*") ? "retention.default" : "retention rule " + pattern) + " ("
          + (period == null ? "forever" : period) + ")";
    }
  }

  private final List<Rule> rules;
  private final Rule fallback;
  private final Map<String, Rule> byName = new ConcurrentHashMap<>();

  private RetentionRules(List<Rule> rules, Rule fallback) {
    this.rules = List.copyOf(rules);
    this.fallback = fallback;
  }

  /**
   * @param defaultPeriod {@code retention.default}: a duration or {@code forever}
   * @param rules {@code retention.rules}: {@code pattern=period} pairs separated by commas, e.g.
   *     {@code jvm_*=30d,debug_*=2d}; empty for none
   */
  public static RetentionRules parse(String defaultPeriod, String rules) {
    List<Rule> parsed = new ArrayList<>();
    for (String part : rules.split(",")) {
      if (part.isBlank()) {
        continue;
      }
      int equals = part.lastIndexOf('=');
      if (equals <= 0) {
        throw new IllegalArgumentException("retention.rules: '" + part.trim()
            + "' is not pattern=period (e.g. jvm_*=30d)");
      }
      String pattern = part.substring(0, equals).trim();
      parsed.add(new Rule(pattern, period("retention.rules (" + pattern + ")", part.substring(equals + 1))));
    }
    return new RetentionRules(parsed, new Rule("*", period("retention.default", defaultPeriod)));
  }

  /** A retention period: a positive duration or {@code forever} (null); {@code what} names the setting. */
  static Duration period(String what, String text) {
    if (text.trim().equalsIgnoreCase("forever")) {
      return null;
    }
    Duration period = Durations.parse(what, text);
    if (period.isZero() || period.isNegative()) {
      throw new IllegalArgumentException(what + " must be positive or 'forever', not " + text.trim());
    }
    return period;
  }

  /** The rule that decides how long series of this name are kept. */
  public Rule ruleFor(String name) {
    return byName.computeIfAbsent(name, n -> {
      for (Rule rule : rules) {
        if (rule.matches(n)) {
          return rule;
        }
      }
      return fallback;
    });
  }

  /** The specific rules, in order, then the default (pattern {@code *}). */
  public List<Rule> all() {
    List<Rule> all = new ArrayList<>(rules);
    all.add(fallback);
    return all;
  }

  /** Whether nothing is ever deleted. */
  public boolean keepsEverything() {
    return all().stream().allMatch(rule -> rule.period() == null);
  }

  static Pattern regex(String glob) {
    StringBuilder regex = new StringBuilder();
    for (char c : glob.toCharArray()) {
      switch (c) {
        case '*' -> regex.append(".*");
        case '?' -> regex.append('.');
        default -> regex.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return Pattern.compile(regex.toString());
  }
}
