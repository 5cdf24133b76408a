package io.chronix.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Long fuzzing runs of the Jazzer fuzz tests in benchmarks/src/test (the build runs their committed
 * corpus as regression tests only): each target in a JVM of its own for the given minutes, starting
 * from the committed inputs; {@code --jobs N} runs N targets at once (a fuzzer uses one core, so at
 * most one per core, and nothing else running). The corpus
 * grows under benchmarks/target/fuzz/corpus, findings land in benchmarks/target/fuzz/findings; a
 * finding goes into the committed inputs (and a unit test) once fixed.
 *
 * <pre>benchmarks/run Fuzz &lt;minutes per target&gt; [--jobs N] [Class#method ...]</pre>
 */
public final class Fuzz {

  private static final List<String> CLASSES = List.of(
      "io.chronix.benchmarks.fuzz.IngestProtocolFuzzTest",
      "io.chronix.benchmarks.fuzz.QueryLanguageFuzzTest",
      "io.chronix.benchmarks.fuzz.ChunkDecoderFuzzTest");
  private static final Path TEST_CLASSES = Path.of("benchmarks/target/test-classes");
  private static final Path INPUTS = Path.of("benchmarks/src/test/resources");
  private static final Path WORK = Path.of("benchmarks/target/fuzz");
  private static final Pattern DONE = Pattern.compile("Done (\\d+) runs in (\\d+) second");
  /** One input taking longer than this is a hang. */
  private static final int INPUT_TIMEOUT_SECONDS = 10;

  private Fuzz() {}

  private record Outcome(String target, int exitCode, long runs, long seconds, List<Path> findings) {}

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: benchmarks/run Fuzz <minutes per target> [Class#method ...]");
      System.exit(2);
    }
    double minutes = Double.parseDouble(args[0]);
    List<String> rest = new ArrayList<>(Arrays.asList(args).subList(1, args.length));
    int jobs = 1;
    if (rest.size() >= 2 && rest.get(0).equals("--jobs")) {
      jobs = Integer.parseInt(rest.get(1));
      rest = rest.subList(2, rest.size());
    }
    List<String> targets = rest.isEmpty() ? discover() : rest;
    String classpath = TEST_CLASSES + java.io.File.pathSeparator + System.getProperty("java.class.path");
    long seconds = Math.max(1, Math.round(minutes * 60));
    ExecutorService pool = Executors.newFixedThreadPool(jobs);
    List<Future<Outcome>> running = new ArrayList<>();
    for (String target : targets) {
      running.add(pool.submit(() -> fuzz(target, seconds, classpath)));
    }
    List<Outcome> outcomes = new ArrayList<>();
    for (Future<Outcome> outcome : running) {
      outcomes.add(outcome.get());
    }
    pool.shutdown();
    System.out.printf("%n%-56s %6s %12s %8s  %s%n", "target", "exit", "executions", "seconds", "findings");
    boolean clean = true;
    for (Outcome outcome : outcomes) {
      System.out.printf("%-56s %6d %12d %8d  %s%n", outcome.target(), outcome.exitCode(), outcome.runs(),
          outcome.seconds(), outcome.findings().isEmpty() ? "none" : outcome.findings());
      clean &= outcome.exitCode() == 0 && outcome.findings().isEmpty();
    }
    System.exit(clean ? 0 : 1);
  }

  /** Every @FuzzTest method of the fuzz test classes, as Class#method. */
  private static List<String> discover() throws Exception {
    List<String> targets = new ArrayList<>();
    try (URLClassLoader loader = new URLClassLoader(new URL[] {TEST_CLASSES.toUri().toURL()}, Fuzz.class.getClassLoader())) {
      for (String name : CLASSES) {
        Method[] methods = loader.loadClass(name).getDeclaredMethods();
        Arrays.sort(methods, Comparator.comparing(Method::getName));
        for (Method method : methods) {
          for (Annotation annotation : method.getAnnotations()) {
            if (annotation.annotationType().getSimpleName().equals("FuzzTest")) {
              targets.add(name + "#" + method.getName());
            }
          }
        }
      }
    }
    return targets;
  }

  private static Outcome fuzz(String target, long seconds, String classpath) throws IOException, InterruptedException {
    String className = target.substring(0, target.indexOf('#'));
    String method = target.substring(target.indexOf('#') + 1);
    String simpleName = className.substring(className.lastIndexOf('.') + 1);
    Path corpus = WORK.resolve("corpus").resolve(simpleName).resolve(method);
    Path findings = WORK.resolve("findings").resolve(simpleName).resolve(method);
    Files.createDirectories(corpus);
    Files.createDirectories(findings);
    Path committed = INPUTS.resolve(className.replace('.', '/') + "Inputs").resolve(method);
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g", "-cp", classpath,
        "com.code_intelligence.jazzer.Jazzer", "--target_class=" + className, "--target_method=" + method,
        "-max_total_time=" + seconds, "-timeout=" + INPUT_TIMEOUT_SECONDS, "-rss_limit_mb=2560",
        "-artifact_prefix=" + findings.toAbsolutePath() + "/", corpus.toString()));
    if (Files.isDirectory(committed)) {
      command.add(committed.toString()); // read, not written: libFuzzer adds new inputs to the first directory
    }
    System.out.printf("fuzzing %s for %d s%n", target, seconds);
    long started = System.currentTimeMillis() - 1000; // findings of earlier runs stay, but do not count
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    long runs = 0;
    long took = 0;
    Path log = WORK.resolve(simpleName + "." + method + ".log");
    try (BufferedReader output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        var writer = Files.newBufferedWriter(log)) {
      String line;
      while ((line = output.readLine()) != null) {
        writer.write(line);
        writer.newLine();
        Matcher done = DONE.matcher(line);
        if (done.find()) {
          runs = Long.parseLong(done.group(1));
          took = Long.parseLong(done.group(2));
        }
        if (line.startsWith("==") || line.contains("Test unit written to")) { // findings and where they went
          System.out.println("  " + line);
        }
      }
    }
    int exit = process.waitFor();
    List<Path> found;
    try (Stream<Path> files = Files.list(findings)) {
      found = files.filter(f -> f.getFileName().toString().matches("(crash|timeout|oom|leak|slow-unit)-.*"))
          .filter(f -> f.toFile().lastModified() >= started).toList();
    }
    System.out.printf("  %s: exit %d, %d executions in %d s, log %s%n", target, exit, runs, took, log);
    return new Outcome(target, exit, runs, took, found);
  }
}
