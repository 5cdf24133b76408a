package io.chronix.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Our server started as a new user starts it: {@code ./chronix start} (the launcher, its default
 * JVM settings, the built server jar) in a process of its own, so its resident memory and CPU time
 * can be read like a peer's. Ports are free ones on 127.0.0.1; the data directory is the caller's.
 * The server's output goes to a log file outside the data directory.
 */
public final class ChronixProcess implements AutoCloseable {

  private static final Pattern READY = Pattern.compile("ready at (http://\\S+) ");

  private final Process process;
  private final URI base;
  private final Path log;

  private ChronixProcess(Process process, URI base, Path log) {
    this.process = process;
    this.base = base;
    this.log = log;
  }

  /** Starts the launcher with extra {@code key=value} settings and waits for its ready line. */
  public static ChronixProcess start(Path dataDir, Path log, String... settings) throws Exception {
    return start(Path.of("."), null, dataDir, log, settings);
  }

  /**
   * As {@link #start(Path, Path, String...)}, with the launcher of another checkout (its
   * {@code ./chronix} and the jar built there): two builds side by side. {@code javaOptions},
   * unless null, replaces {@code CHRONIX_JAVA_OPTS} for this server.
   */
  public static ChronixProcess start(Path checkout, String javaOptions, Path dataDir, Path log, String... settings)
      throws Exception {
    List<String> command = new ArrayList<>(List.of("./chronix", "start", "--http-port", "0",
        "--data-dir", dataDir.toString(), "--set", "graphite.tcpPort=0", "--set", "graphite.udpPort=0",
        "--set", "opentsdb.telnetPort=0"));
    for (String setting : settings) {
      command.add("--set");
      command.add(setting);
    }
    // the launcher execs java: the process started here is the server JVM itself
    ProcessBuilder builder = new ProcessBuilder(command).directory(checkout.toFile()).redirectErrorStream(true);
    if (javaOptions != null) {
      builder.environment().put("CHRONIX_JAVA_OPTS", javaOptions);
    }
    Process process = builder.start();
    BufferedReader output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    String line;
    try (var writer = Files.newBufferedWriter(log)) {
      while (System.nanoTime() < deadline && (line = output.readLine()) != null) {
        writer.write(line);
        writer.newLine();
        Matcher ready = READY.matcher(line);
        if (ready.find()) {
          writer.flush();
          copyInBackground(output, log);
          return new ChronixProcess(process, URI.create(ready.group(1)), log);
        }
      }
    }
    process.destroyForcibly();
    throw new IllegalStateException("chronix start did not report ready; log: " + log);
  }

  private static void copyInBackground(BufferedReader output, Path log) {
    Thread copy = new Thread(() -> {
      try (var writer = Files.newBufferedWriter(log, java.nio.file.StandardOpenOption.APPEND)) {
        String line;
        while ((line = output.readLine()) != null) {
          writer.write(line);
          writer.newLine();
        }
      } catch (IOException ignored) {
        // the process ended; what was copied stays in the log
      }
    }, "chronix-log-copy");
    copy.setDaemon(true);
    copy.start();
  }

  public URI base() {
    return base;
  }

  public long pid() {
    return process.pid();
  }

  public Path log() {
    return log;
  }

  public ProcessStats stats() {
    return ProcessStats.of(process.pid());
  }

  /** SIGTERM: the clean stop, after which the data directory is complete. */
  public void stop() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(5, TimeUnit.MINUTES)) {
      throw new IllegalStateException("chronix did not stop within 5 minutes; log: " + log);
    }
    // 143 is the JVM's exit on SIGTERM after its shutdown hooks ran
    if (process.exitValue() != 0 && process.exitValue() != 143) {
      throw new IllegalStateException("chronix exited with " + process.exitValue() + " on SIGTERM; log: " + log);
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
  }
}
