package io.chronix.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Installs a peer from its Debian package through its script in {@code benchmarks/peers/} (which
 * installs only when missing and prints the server binary's path last) and returns that path.
 */
public final class PeerPackages {

  private PeerPackages() {}

  /** @param script the script's file name, e.g. {@code victoria-metrics.sh} */
  public static String install(String script) throws IOException, InterruptedException {
    // from the repository root (benchmarks/run) or from the module (its tests)
    Path path = Path.of("benchmarks", "peers", script);
    if (!Files.exists(path)) {
      path = Path.of("peers", script);
    }
    List<String> out = VictoriaMetricsProcess.run(List.of("bash", path.toString()));
    String binary = out.isEmpty() ? "" : out.get(out.size() - 1).trim();
    if (binary.isEmpty() || !Files.isExecutable(Path.of(binary))) {
      throw new IllegalStateException(path + " printed no executable: " + out);
    }
    return binary;
  }
}
