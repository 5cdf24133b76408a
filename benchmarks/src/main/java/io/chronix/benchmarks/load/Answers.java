package io.chronix.benchmarks.load;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * What the server answered, beyond what Gatling's log keeps: how many dashboard answers held data
 * (a query of a series whose writes were refused answers 200 with nothing in it, and fast, so
 * latency alone would flatter a server that cannot keep up with the ingest), and the bodies of
 * unexpected answers (Gatling reports only the status; the body says which limit a 503 hit).
 * Static because Gatling builds the simulation itself, in this JVM, and hands nothing back but its
 * log.
 */
public final class Answers {

  private static final int BODY_CHARS = 160;
  private static final Map<String, LongAdder> WITH_DATA = new ConcurrentHashMap<>();
  private static final Map<String, Map<String, LongAdder>> UNEXPECTED = new ConcurrentHashMap<>();

  private Answers() {}

  /** Forgets every answer: the next run counts its own (the peers' runs share this JVM). */
  static void reset() {
    WITH_DATA.clear();
    UNEXPECTED.clear();
  }

  /** Records one answer of the request type; {@code body} is read only when it matters. */
  static void record(String request, int expected, int status, Supplier<String> body) {
    if (status != expected) {
      String text = body.get().strip().replaceAll("\\s+", " ");
      String key = "HTTP " + status + (text.isEmpty() ? " (no body)" : ": "
          + (text.length() > BODY_CHARS ? text.substring(0, BODY_CHARS) + "..." : text));
      UNEXPECTED.computeIfAbsent(request, name -> new ConcurrentHashMap<>())
          .computeIfAbsent(key, k -> new LongAdder()).increment();
    } else if (status == 200 && hasData(body.get())) {
      WITH_DATA.computeIfAbsent(request, name -> new LongAdder()).increment();
    }
  }

  /** Whether a query answer (Chronix /query or PromQL) holds at least one series. */
  static boolean hasData(String body) {
    return !body.contains("\"numFound\":0") && !body.contains("\"result\":[]");
  }

  /** Answers of the request type that held data. */
  public static long withData(String request) {
    LongAdder count = WITH_DATA.get(request);
    return count == null ? 0 : count.sum();
  }

  /** Unexpected answers of the request type (status and body), most frequent first, with counts. */
  public static Map<String, Long> unexpected(String request) {
    Map<String, Long> answers = new LinkedHashMap<>();
    UNEXPECTED.getOrDefault(request, Map.of()).entrySet().stream()
        .sorted((a, b) -> Long.compare(b.getValue().sum(), a.getValue().sum()))
        .forEach(entry -> answers.put(entry.getKey(), entry.getValue().sum()));
    return answers;
  }
}
