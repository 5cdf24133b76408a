package io.chronix.benchmarks.load;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * The seconds of a run in which a request type's slowest answer took longer than the goal, told as
 * spans of the run. A p99 says how long the slowest hundredth took, not when: spans that come back
 * at a steady period point at the server's periodic work (the flusher's relief rounds, the
 * collector), spans in the first minute at filling the buffers of a fleet's new series.
 */
public final class SlowSeconds {

  /** The first minute: a fresh server takes the fleet's new series then. */
  static final int FIRST_MINUTE = 60;
  /** Slow seconds this close together make one span. */
  private static final int SPAN_GAP = 2;
  /** Spans named in a line, at most. */
  private static final int MAX_SPANS = 24;

  /** The run's length in whole seconds. */
  private final int seconds;
  /** Answers longer than this, in ms, made their second slow. */
  private final int limitMs;
  /** The seconds (from the run's start, ascending) whose slowest answer was over the limit. */
  private final int[] slow;

  private SlowSeconds(int seconds, int limitMs, int[] slow) {
    this.seconds = seconds;
    this.limitMs = limitMs;
    this.slow = slow;
  }

  /** A run of {@code seconds} without a slow one (a request type that was never answered). */
  public static SlowSeconds none(int seconds, int limitMs) {
    return new SlowSeconds(seconds, limitMs, new int[0]);
  }

  /**
   * @param second each second's place in the run (from 0, ascending)
   * @param slowestMs the slowest answer of that second, in ms
   * @param limitMs answers longer than this are slow
   * @param seconds the run's length in whole seconds
   */
  public static SlowSeconds of(int[] second, int[] slowestMs, int limitMs, int seconds) {
    if (second.length != slowestMs.length) {
      throw new IllegalArgumentException(second.length + " seconds and " + slowestMs.length + " maxima");
    }
    return new SlowSeconds(seconds, limitMs, IntStream.range(0, second.length)
        .filter(i -> slowestMs[i] > limitMs).map(i -> second[i]).sorted().toArray());
  }

  /** How many slow seconds fell into the first minute. */
  public long inFirstMinute() {
    return Arrays.stream(slow).filter(s -> s < FIRST_MINUTE).count();
  }

  /** The slow seconds after the first minute as spans, e.g. {@code 71-78}, {@code 105}. */
  public List<String> spansAfterFirstMinute() {
    List<String> spans = new ArrayList<>();
    int from = -1;
    int to = -1;
    for (int s : slow) {
      if (s < FIRST_MINUTE) {
        continue;
      }
      if (from >= 0 && s - to <= SPAN_GAP) {
        to = s;
        continue;
      }
      if (from >= 0) {
        spans.add(span(from, to));
      }
      from = s;
      to = s;
    }
    if (from >= 0) {
      spans.add(span(from, to));
    }
    return spans;
  }

  private static String span(int from, int to) {
    return from == to ? Integer.toString(from) : from + "-" + to;
  }

  /** One line for the report. */
  public String describe(String request) {
    List<String> spans = spansAfterFirstMinute();
    String after = spans.isEmpty() ? "none after it"
        : "after it at " + String.join(", ", spans.subList(0, Math.min(spans.size(), MAX_SPANS))) + " s"
            + (spans.size() > MAX_SPANS ? " and " + (spans.size() - MAX_SPANS) + " spans more" : "");
    return String.format(Locale.ROOT, "%s: %d of %d s held an answer over %d ms (%d in the first minute); %s",
        request, slow.length, seconds, limitMs, inFirstMinute(), after);
  }
}
