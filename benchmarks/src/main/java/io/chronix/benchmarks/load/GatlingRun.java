package io.chronix.benchmarks.load;

import io.gatling.app.Gatling$;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Runs {@link LoadSimulation} in this JVM, the way Gatling's own launcher would, so that the load
 * needs nothing but the benchmarks classpath (no Gatling bundle, no plugin run, no internet:
 * gatling.conf on the classpath turns analytics and the warm-up request off). Gatling writes each
 * run into a new directory of the results directory: its log and the HTML report.
 */
public final class GatlingRun {

  private GatlingRun() {}

  /**
   * Runs the load with the dashboards' {@code mix} against {@code baseUrl} for {@code seconds};
   * returns the run's directory. The answers counted before are forgotten.
   */
  public static Path run(String baseUrl, long seconds, LoadShape.Mix mix, Path resultsDir, String description)
      throws IOException {
    Files.createDirectories(resultsDir);
    Set<Path> before = runDirectories(resultsDir);
    Answers.reset();
    System.setProperty(LoadShape.BASE_URL_PROPERTY, baseUrl);
    System.setProperty(LoadShape.SECONDS_PROPERTY, Long.toString(seconds));
    System.setProperty(LoadShape.MIX_PROPERTY, mix.name());
    int status = Gatling$.MODULE$.fromArgs(new String[] {
        "--simulation", LoadSimulation.class.getName(),
        "--results-folder", resultsDir.toAbsolutePath().toString(),
        "--run-description", description,
        "--launcher", "chronix-benchmarks"});
    Path run = runDirectories(resultsDir).stream()
        .filter(dir -> !before.contains(dir))
        .max(Comparator.comparing(Path::toString))
        .orElseThrow(() -> new IllegalStateException("Gatling wrote no run into " + resultsDir + ", status " + status));
    // status 2 only says that assertions failed; this simulation has none, its verdict is the report's
    if (status != 0 && status != 2) {
      throw new IllegalStateException("Gatling ended with status " + status + "; run directory " + run);
    }
    return run;
  }

  private static Set<Path> runDirectories(Path resultsDir) throws IOException {
    try (Stream<Path> entries = Files.list(resultsDir)) {
      return entries.filter(Files::isDirectory).collect(Collectors.toSet());
    }
  }
}
