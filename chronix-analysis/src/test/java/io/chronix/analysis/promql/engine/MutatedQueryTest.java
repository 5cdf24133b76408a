package io.chronix.analysis.promql.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.analysis.promql.conformance.InMemorySource;
import io.chronix.analysis.promql.conformance.TestScript;
import io.chronix.analysis.promql.model.Labels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Bad PromQL never crashes the engine: every query of Prometheus' test scripts, mutated (characters
 * dropped, inserted, swapped, cut, pieces doubled) with a fixed seed, either evaluates or fails
 * with a {@link PromQlException} of a client-facing type; parse errors name line and column. An
 * internal error, any other exception, a stack overflow or a hang is a finding. Jazzer fuzzes the
 * parser longer (issue 9); this is the deterministic part that runs in every build.
 */
class MutatedQueryTest {

  private static final Pattern POSITIONED = Pattern.compile("\\d+:\\d+: parse error: .+", Pattern.DOTALL);
  private static final String ALPHABET = "(){}[],=~!\"'`+-*/^%<>@:. 0123456789abcdefxyzOoIi_\n#\\";
  private static final int MUTANTS_PER_QUERY = 20;
  private static final QueryLimits LIMITS =
      QueryLimits.DEFAULT.withMaxSamples(2_000_000).withTimeout(Duration.ofSeconds(2));

  @Test
  void mutatedQueriesFailCleanly() throws Exception {
    List<String> corpus = corpus();
    assertTrue(corpus.size() > 900, "queries from the test scripts: " + corpus.size());
    Engine engine = new Engine(source(), Runnable::run);
    Random random = new Random(20261122L);
    List<String> findings = new ArrayList<>();
    int evaluated = 0;
    int rejected = 0;
    for (String query : corpus) {
      for (int m = 0; m < MUTANTS_PER_QUERY; m++) {
        String mutant = mutate(query, random);
        for (boolean range : new boolean[] {false, true}) {
          try {
            if (range) {
              engine.range(mutant, 0, 600_000, 60_000, LIMITS);
            } else {
              engine.instant(mutant, 300_000, LIMITS);
            }
            evaluated++;
          } catch (PromQlException e) {
            rejected++;
            if (e.type() == PromQlException.Type.INTERNAL) {
              findings.add(mutant + " -> internal error " + e.getMessage());
            } else if (e.getCause() instanceof io.chronix.analysis.promql.parser.ParseException
                && !POSITIONED.matcher(e.getMessage()).matches()) {
              findings.add(mutant + " -> parse error without position: " + e.getMessage());
            }
          } catch (RuntimeException | StackOverflowError e) {
            findings.add(mutant + " -> " + e);
          }
        }
      }
    }
    System.out.printf("mutated PromQL: %d queries, %d evaluations answered, %d rejected, %d findings%n",
        corpus.size() * MUTANTS_PER_QUERY, evaluated, rejected, findings.size());
    findings.stream().limit(20).forEach(f -> System.out.println("FINDING " + f));
    assertEquals(List.of(), findings);
    assertTrue(evaluated > 1000 && rejected > 1000, "both outcomes exercised: " + evaluated + " / " + rejected);
  }

  /** Found by the mutations: Prometheus unwraps parentheses around count_values' label. */
  @Test
  void countValuesLabelInParentheses() {
    QueryResult result = new Engine(source(), Runnable::run).instant("count_values(((\"v\")), metric)", 0, LIMITS);
    assertEquals(1, ((QueryResult.Vector) result.data()).samples().size());
  }

  static List<String> corpus() throws Exception {
    Path dir = Path.of(System.getProperty("chronix.promql.dir"));
    Set<String> queries = new LinkedHashSet<>();
    List<Path> files;
    try (Stream<Path> list = Files.list(dir)) {
      files = list.filter(p -> p.toString().endsWith(".test")).sorted().toList();
    }
    for (Path file : files) {
      for (TestScript.Command command : TestScript.parse(file).commands()) {
        if (command instanceof TestScript.Eval eval) {
          queries.add(eval.query());
        }
      }
    }
    return new ArrayList<>(queries);
  }

  static InMemorySource source() {
    InMemorySource source = new InMemorySource();
    long[] times = new long[61];
    double[] counter = new double[61];
    double[] gauge = new double[61];
    for (int i = 0; i < times.length; i++) {
      times[i] = i * 10_000L;
      counter[i] = i * 3;
      gauge[i] = Math.sin(i / 5.0) * 10;
    }
    for (String job : new String[] {"api", "db"}) {
      source.add(Labels.of("__name__", "http_requests_total", "job", job), times, counter);
      source.add(Labels.of("__name__", "metric", "job", job), times, gauge);
      source.add(Labels.of("__name__", "foo", "job", job, "le", "0.5"), times, counter);
    }
    return source;
  }

  static String mutate(String query, Random random) {
    StringBuilder text = new StringBuilder(query);
    int edits = 1 + random.nextInt(3);
    for (int e = 0; e < edits && text.length() > 0; e++) {
      int at = random.nextInt(text.length());
      switch (random.nextInt(5)) {
        case 0 -> text.deleteCharAt(at);
        case 1 -> text.insert(at, ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        case 2 -> {
          if (at + 1 < text.length()) {
            char c = text.charAt(at);
            text.setCharAt(at, text.charAt(at + 1));
            text.setCharAt(at + 1, c);
          }
        }
        case 3 -> text.setLength(at);
        default -> {
          int end = Math.min(text.length(), at + 1 + random.nextInt(12));
          text.insert(end, text.substring(at, end));
        }
      }
    }
    return text.toString();
  }
}
