package io.chronix.benchmarks;

import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The settings the JMH benchmarks here share: one fork, one thread (a core's figure), 2-second
 * iterations, three of warm-up and five measured, over one input directory.
 */
public final class Jmh {

  private Jmh() {}

  /** Options for a benchmark class whose {@code input} parameter names the data directory. */
  public static ChainedOptionsBuilder oneThread(Class<?> benchmark, String input) {
    return new OptionsBuilder()
        .include(benchmark.getSimpleName())
        .param("input", input)
        .forks(1)
        .threads(1)
        .warmupIterations(3).warmupTime(TimeValue.seconds(2))
        .measurementIterations(5).measurementTime(TimeValue.seconds(2))
        .jvmArgsAppend(forkOptions());
  }

  /**
   * JVM options for the measuring fork from {@code JMH_JVM_ARGS} (space-separated), so a JIT or
   * collector setting of the server's launcher can be measured on the path alone.
   */
  public static String[] forkOptions(String... more) {
    String fromEnv = System.getenv().getOrDefault("JMH_JVM_ARGS", "").trim();
    java.util.List<String> options = new java.util.ArrayList<>();
    if (!fromEnv.isEmpty()) {
      options.addAll(java.util.List.of(fromEnv.split("\\s+")));
    }
    options.addAll(java.util.List.of(more));
    return options.toArray(String[]::new);
  }
}
