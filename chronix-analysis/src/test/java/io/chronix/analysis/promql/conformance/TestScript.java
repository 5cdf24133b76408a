package io.chronix.analysis.promql.conformance;

import io.chronix.analysis.promql.model.Labels;
import io.chronix.analysis.promql.parser.Durations;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A PromQL test script of the Prometheus project (../shared/promql/FORMAT.md): load, clear and
 * eval commands with their expectations. Parsed here so that any engine, in memory or behind the
 * store, can be checked against it.
 */
public final class TestScript {

  public sealed interface Command permits Load, Clear, Eval {}

  /** Samples at 0, interval, 2 interval...; {@code nhcb}: the series also become native histograms. */
  public record Load(long intervalMillis, List<SeriesData> series, boolean nhcb, int line) implements Command {}

  public record Clear(int line) implements Command {}

  /** One series of a load or an expected result: values per step, null for none. */
  public record SeriesData(Labels labels, List<SampleValue> values) {
    public boolean hasHistogram() {
      return values.stream().anyMatch(v -> v != null && v.histogram());
    }
  }

  /** A value: a float, a stale marker, or a native histogram (not stored, so tests using it are skipped). */
  public record SampleValue(double value, boolean stale, boolean histogram) {}

  public record Eval(int line, String query, boolean range, long start, long end, long step, boolean expectFail,
      String failMessage, String failRegex, boolean ordered, List<String> warnExpectations,
      List<String> infoExpectations, boolean noWarn, boolean noInfo, boolean anyWarn, boolean anyInfo,
      String expectedString, Double expectedScalar, RangeVector rangeVector, List<SeriesData> expected,
      boolean mentionsHistograms) implements Command {}

  /** Expected timestamps of a range vector returned by an instant query. */
  public record RangeVector(long start, long end, long step) {}

  private final List<Command> commands;

  private TestScript(List<Command> commands) {
    this.commands = commands;
  }

  public List<Command> commands() {
    return commands;
  }

  public static TestScript parse(Path file) throws IOException {
    return parse(Files.readAllLines(file, StandardCharsets.UTF_8));
  }

  static TestScript parse(List<String> lines) {
    List<Command> commands = new ArrayList<>();
    int i = 0;
    while (i < lines.size()) {
      String line = lines.get(i).trim();
      int lineNumber = i + 1;
      i++;
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] words = line.split("\\s+", 2);
      String keyword = words[0];
      if (keyword.equals("clear")) {
        commands.add(new Clear(lineNumber));
      } else if (keyword.equals("load") || keyword.equals("load_with_nhcb")) {
        long interval = duration(words[1].trim());
        List<SeriesData> series = new ArrayList<>();
        while (i < lines.size() && isIndented(lines.get(i))) {
          String body = lines.get(i).trim();
          i++;
          if (!body.isEmpty() && !body.startsWith("#")) {
            series.add(SeriesLine.parse(body));
          }
        }
        commands.add(new Load(interval, series, keyword.equals("load_with_nhcb"), lineNumber));
      } else if (keyword.startsWith("eval")) {
        List<String> body = new ArrayList<>();
        while (i < lines.size() && (isIndented(lines.get(i)) || lines.get(i).trim().startsWith("expect"))) {
          String text = lines.get(i).trim();
          i++;
          if (!text.isEmpty() && !text.startsWith("#")) {
            body.add(text);
          }
        }
        commands.add(eval(keyword, words.length > 1 ? words[1] : "", body, lineNumber));
      } else {
        throw new IllegalArgumentException("line " + lineNumber + ": unknown command '" + keyword + "'");
      }
    }
    return new TestScript(commands);
  }

  private static boolean isIndented(String line) {
    return !line.isEmpty() && (line.charAt(0) == ' ' || line.charAt(0) == '\t');
  }

  static long duration(String text) {
    String t = text.trim();
    boolean negative = t.startsWith("-");
    if (negative) {
      t = t.substring(1);
    }
    long millis;
    if (t.matches("\\d+")) {
      millis = Long.parseLong(t) * 1000;
    } else {
      millis = Durations.parseMillis(t);
    }
    return negative ? -millis : millis;
  }

  private static Eval eval(String keyword, String rest, List<String> body, int line) {
    boolean expectFail = keyword.equals("eval_fail");
    boolean ordered = keyword.equals("eval_ordered");
    boolean anyWarn = keyword.equals("eval_warn");
    boolean anyInfo = keyword.equals("eval_info");
    boolean range;
    long start;
    long end;
    long step;
    String query;
    String[] words = rest.split("\\s+");
    if (words[0].equals("instant")) {
      // instant at <time> <query>
      range = false;
      start = duration(words[2]);
      end = start;
      step = 0;
      query = rest.split("\\s+", 4)[3];
    } else {
      // range from <start> to <end> step <step> <query>
      range = true;
      start = duration(words[2]);
      end = duration(words[4]);
      step = duration(words[6]);
      query = rest.split("\\s+", 8)[7];
    }
    String failMessage = null;
    String failRegex = null;
    List<String> warns = new ArrayList<>();
    List<String> infos = new ArrayList<>();
    boolean noWarn = false;
    boolean noInfo = false;
    String expectedString = null;
    Double expectedScalar = null;
    RangeVector rangeVector = null;
    List<SeriesData> expected = new ArrayList<>();
    for (String text : body) {
      if (text.startsWith("expect")) {
        String directive = text.substring("expect".length()).trim();
        if (directive.startsWith("fail")) {
          expectFail = true;
          String detail = directive.substring(4).trim();
          if (detail.startsWith("msg:")) {
            failMessage = unquoteMessage(detail.substring(4).trim());
          } else if (detail.startsWith("regex:")) {
            failRegex = unquoteMessage(detail.substring(6).trim());
          }
        } else if (directive.startsWith("warn")) {
          anyWarn = true;
          warns.add(directive.substring(4).trim());
        } else if (directive.startsWith("info")) {
          anyInfo = true;
          infos.add(directive.substring(4).trim());
        } else if (directive.equals("no_warn")) {
          noWarn = true;
        } else if (directive.equals("no_info")) {
          noInfo = true;
        } else if (directive.equals("ordered")) {
          ordered = true;
        } else if (directive.startsWith("string")) {
          String quoted = directive.substring(6).trim();
          expectedString = quoted.substring(1, quoted.length() - 1);
        } else if (directive.startsWith("range vector")) {
          String[] parts = directive.split("\\s+");
          rangeVector = new RangeVector(duration(parts[3]), duration(parts[5]), duration(parts[7]));
        }
        continue;
      }
      String[] tokens = text.split("\\s+");
      if (tokens.length == 1 && !text.startsWith("{") && SeriesLine.isNumber(tokens[0])) {
        expectedScalar = SeriesLine.number(tokens[0]);
        continue;
      }
      expected.add(SeriesLine.parse(text));
    }
    boolean histograms = body.stream().anyMatch(b -> b.contains("{{"));
    return new Eval(line, query, range, start, end, step, expectFail, failMessage, failRegex, ordered, warns, infos,
        noWarn, noInfo, anyWarn, anyInfo, expectedString, expectedScalar, rangeVector, expected, histograms);
  }

  private static String unquoteMessage(String text) {
    if (text.length() >= 2 && text.startsWith("\"") && text.endsWith("\"")) {
      return text.substring(1, text.length() - 1);
    }
    return text;
  }
}
