package io.chronix.ingest.semantic;

import io.chronix.analysis.ChronixFunction;
import io.chronix.analysis.FunctionQueryException;
import io.chronix.analysis.Functions;
import io.chronix.analysis.Transformation;
import io.chronix.core.chunk.Chunker;
import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.codec.Compression;
import io.chronix.ingest.config.Durations;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The {@code semantic.rules} setting: {@code <glob> -> <option> <option> | <glob> -> ...}, the first
 * rule whose glob ({@code *} any run, {@code ?} one character) matches a series name applies.
 * Lossy options: {@code ddc=<duration>} (timestamps may move by that much), {@code digits=<n>}
 * (values rounded to n significant digits), {@code downsample=<n><unit>/<aggregation>} (one point
 * per interval, e.g. {@code 1m/avg}); see docs/ingest.md for what each loses. Lossless options
 * ({@code chronix tune} recommends them): {@code chunk=<points>} and {@code compression=<none|gzip>}.
 */
public final class SemanticRules {

  private final List<SemanticRule> rules;

  private SemanticRules(List<SemanticRule> rules) {
    this.rules = rules;
  }

  public static SemanticRules none() {
    return new SemanticRules(List.of());
  }

  public static SemanticRules parse(String spec, int chunkMaxPoints, Compression compression) {
    List<SemanticRule> rules = new ArrayList<>();
    if (spec == null || spec.isBlank()) {
      return new SemanticRules(rules);
    }
    for (String text : spec.split("\\s+\\|\\s+")) {
      int arrow = text.indexOf("->");
      if (arrow <= 0) {
        throw new IllegalArgumentException("semantic.rules: '" + text.trim() + "' must read '<glob> -> <options>'");
      }
      String glob = text.substring(0, arrow).trim();
      long ddc = 0;
      int digits = 0;
      Transformation downsample = null;
      int chunk = chunkMaxPoints;
      Compression chunkCompression = compression;
      for (String option : text.substring(arrow + 2).trim().split("\\s+")) {
        String[] pair = option.split("=", 2);
        if (pair.length != 2) {
          throw new IllegalArgumentException("semantic.rules, rule '" + glob + "': option '" + option + "' must read key=value");
        }
        switch (pair[0]) {
          case "ddc":
            ddc = Durations.parse("semantic.rules, rule '" + glob + "', ddc", pair[1]).toNanos();
            break;
          case "digits":
            digits = parseDigits(glob, pair[1]);
            break;
          case "downsample":
            downsample = parseDownsample(glob, pair[1]);
            break;
          case "chunk":
            chunk = parseChunk(glob, pair[1]);
            break;
          case "compression":
            try {
              chunkCompression = io.chronix.core.codec.Compressions.byName(pair[1]);
            } catch (IllegalArgumentException e) {
              throw new IllegalArgumentException("semantic.rules, rule '" + glob + "': " + e.getMessage(), e);
            }
            break;
          default:
            throw new IllegalArgumentException("semantic.rules, rule '" + glob + "': unknown option '" + pair[0]
                + "' (ddc, digits, downsample, chunk, compression)");
        }
      }
      rules.add(new SemanticRule(glob, globPattern(glob), downsample, digits, ddc,
          new Chunker(chunk, new ChunkCodec(chunkCompression, ddc))));
    }
    return new SemanticRules(rules);
  }

  public Optional<SemanticRule> ruleFor(String name) {
    for (SemanticRule rule : rules) {
      if (rule.matches(name)) {
        return Optional.of(rule);
      }
    }
    return Optional.empty();
  }

  public boolean isEmpty() {
    return rules.isEmpty();
  }

  private static int parseChunk(String glob, String text) {
    try {
      int points = Integer.parseInt(text);
      if (points >= 1) {
        return points;
      }
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new IllegalArgumentException("semantic.rules, rule '" + glob + "': chunk must be a positive number of points, not '" + text + "'");
  }

  private static int parseDigits(String glob, String text) {
    try {
      int digits = Integer.parseInt(text);
      if (digits >= 1 && digits <= 17) {
        return digits;
      }
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new IllegalArgumentException("semantic.rules, rule '" + glob + "': digits must be 1 to 17, not '" + text + "'");
  }

  /** {@code 1m/avg} becomes the analysis library's {@code downsample:60,seconds,avg}. */
  private static Transformation parseDownsample(String glob, String text) {
    String[] parts = text.split("/", 2);
    if (parts.length != 2) {
      throw new IllegalArgumentException("semantic.rules, rule '" + glob + "': downsample must read <interval>/<aggregation>, e.g. 1m/avg");
    }
    long nanos = Durations.parse("semantic.rules, rule '" + glob + "', downsample", parts[0]).toNanos();
    try {
      ChronixFunction function = Functions.parse("downsample:" + nanos + ",nanos," + parts[1]);
      return (Transformation) function;
    } catch (FunctionQueryException e) {
      throw new IllegalArgumentException("semantic.rules, rule '" + glob + "': " + e.getMessage(), e);
    }
  }

  private static Pattern globPattern(String glob) {
    StringBuilder regex = new StringBuilder();
    for (char c : glob.toCharArray()) {
      if (c == '*') {
        regex.append(".*");
      } else if (c == '?') {
        regex.append('.');
      } else {
        regex.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return Pattern.compile(regex.toString());
  }
}
