package io.chronix.ingest.cli;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code chronix start} in a JVM of its own, as a user runs it. */
final class ServerProcess implements AutoCloseable {

  private static final Pattern READY = Pattern.compile("ready at (http://\\S+) ");

  private static final int KEPT_OUTPUT = 1 << 20;

  private final Process process;
  private final String baseUrl;
  /** The last megabyte of the server's output, for tests that look for errors in its log. */
  private final StringBuffer output;

  private ServerProcess(Process process, String baseUrl, StringBuffer output) {
    this.process = process;
    this.baseUrl = baseUrl;
    this.output = output;
  }

  static ServerProcess start(Path dataDir, String... settings) throws Exception {
    return start("512m", dataDir, settings);
  }

  /** With a heap of the given size ({@code -Xmx}). */
  static ServerProcess start(String heap, Path dataDir, String... settings) throws Exception {
    Process process = launch(heap, dataDir, settings);
    BufferedReader output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    StringBuilder seen = new StringBuilder();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    String line;
    while (System.nanoTime() < deadline && (line = output.readLine()) != null) {
      seen.append(line).append('\n');
      Matcher matcher = READY.matcher(line);
      if (matcher.find()) {
        StringBuffer kept = new StringBuffer(seen);
        drain(output, kept);
        return new ServerProcess(process, matcher.group(1), kept);
      }
    }
    process.destroyForcibly();
    throw new AssertionError("server did not report ready:\n" + seen);
  }

  /** Starts the process and returns at once, ready or not: for kills while it starts. */
  static ServerProcess launchOnly(Path dataDir, String... settings) throws Exception {
    Process process = launch("512m", dataDir, settings);
    StringBuffer kept = new StringBuffer();
    drain(new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)), kept);
    return new ServerProcess(process, null, kept);
  }

  /** Keeps draining the output so the child never blocks on a full pipe. */
  private static void drain(BufferedReader output, StringBuffer kept) {
    Thread drain = new Thread(() -> output.lines().forEach(line -> {
      kept.append(line).append('\n');
      if (kept.length() > 2 * KEPT_OUTPUT) {
        kept.delete(0, kept.length() - KEPT_OUTPUT);
      }
    }));
    drain.setDaemon(true);
    drain.start();
  }

  private static Process launch(String heap, Path dataDir, String... settings) throws Exception {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx" + heap,
        "-cp", System.getProperty("java.class.path"), ChronixCli.class.getName(),
        "start", "--http-port", "0", "--data-dir", dataDir.toString(),
        "--set", "graphite.tcpPort=0", "--set", "graphite.udpPort=0", "--set", "opentsdb.telnetPort=0"));
    for (String setting : settings) {
      command.add("--set");
      command.add(setting);
    }
    return new ProcessBuilder(command).redirectErrorStream(true).start();
  }

  /** What the server printed so far (its last megabyte). */
  String output() {
    return output.toString();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  String baseUrl() {
    return baseUrl;
  }

  /** SIGTERM: the clean stop. */
  boolean terminate(long seconds) throws InterruptedException {
    process.destroy();
    return process.waitFor(seconds, TimeUnit.SECONDS);
  }

  /** SIGKILL: no shutdown hook runs. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(60, TimeUnit.SECONDS);
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }
}
