package io.chronix.ingest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.security.Credentials;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChronixCliTest {

  @TempDir Path dir;

  @Test
  void importWithoutServerFailsClearly() throws Exception {
    int freePort;
    try (ServerSocket socket = new ServerSocket(0)) {
      freePort = socket.getLocalPort();
    }
    Path file = dir.resolve("h_p_g_2015.08.12_19.23.02--m.csv");
    Files.writeString(file, "Date;m\n12.08.2015 17:25:41.389;1\n");
    String err = captureErr(() -> assertEquals(3, ChronixCli.run(new String[] {"import", "--http-port", String.valueOf(freePort), file.toString()})));
    assertTrue(err.contains("no Chronix server answers at http://127.0.0.1:" + freePort), err);
  }

  @Test
  void everyCommandPrintsItsOwnHelp() throws Exception {
    for (String command : new String[] {"start", "import", "tune", "passwd", "token", "backup", "restore", "export"}) {
      String out = captureOut("", () -> assertEquals(0, ChronixCli.run(new String[] {command, "--help"})));
      assertTrue(out.startsWith("Usage: chronix " + command), command + ": " + out);
    }
    String out = captureOut("", () -> assertEquals(0, ChronixCli.run(new String[] {"start", "-h"})));
    assertTrue(out.contains("--data-dir"), out);
  }

  @Test
  void usageErrorsExitWithTwo() throws Exception {
    String err = captureErr(() -> assertEquals(2, ChronixCli.run(new String[] {"start", "--bogus", "1"})));
    assertTrue(err.contains("Unknown options: '--bogus'"), err);
    err = captureErr(() -> assertEquals(2, ChronixCli.run(new String[] {"import"})));
    assertTrue(err.contains("Missing required parameter: '<files>'"), err);
    err = captureErr(() -> assertEquals(2, ChronixCli.run(new String[] {"strat"})));
    assertTrue(err.contains("Did you mean: chronix start?") || err.contains("Did you mean"), err);
    err = captureErr(() -> assertEquals(2, ChronixCli.run(new String[] {"start", "--http-port", "x"})));
    assertTrue(err.contains("http.port"), err);
  }

  @Test
  void passwdAndTokenPrintSettingsThatTheServerAccepts() throws Exception {
    String passwd = captureOut("correct horse battery\n", () -> assertEquals(0,
        ChronixCli.run(new String[] {"passwd", "grafana", "--roles", "read"})));
    assertTrue(passwd.startsWith("auth.user.grafana.roles=read\nauth.user.grafana.password=pbkdf2-sha256$"), passwd);
    String token = captureOut("", () -> assertEquals(0, ChronixCli.run(new String[] {"token", "agent"})));
    String[] lines = token.split("\n");
    assertEquals("auth.token.agent.roles=write", lines[1]);
    assertEquals("auth.token.agent.sha256=" + Credentials.hashToken(lines[0]), lines[2]);

    ServerConfig config = ServerConfig.defaults();
    for (String line : (passwd + token.substring(token.indexOf('\n') + 1)).split("\n")) {
      config = config.with(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1));
    }
    Credentials credentials = config.with("auth.enabled", "true").credentials();
    assertTrue(!credentials.isEmpty());
    String err = captureErr(() -> assertEquals(2, ChronixCli.run(new String[] {"passwd", "x y"})));
    assertTrue(err.contains("passwd needs one name"), err);
    String shortPassword = captureErr(() -> captureOut("short\n", () -> assertEquals(2,
        ChronixCli.run(new String[] {"passwd", "bob"}))));
    assertTrue(shortPassword.contains("at least 8 characters"), shortPassword);
  }

  private static String captureOut(String stdin, Runnable action) {
    PrintStream original = System.out;
    java.io.InputStream originalIn = System.in;
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
    System.setIn(new java.io.ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
    try {
      action.run();
    } finally {
      System.setOut(original);
      System.setIn(originalIn);
    }
    return buffer.toString(StandardCharsets.UTF_8);
  }

  private static String captureErr(Runnable action) {
    PrintStream original = System.err;
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    System.setErr(new PrintStream(buffer, true, StandardCharsets.UTF_8));
    try {
      action.run();
    } finally {
      System.setErr(original);
    }
    return buffer.toString(StandardCharsets.UTF_8);
  }

  @Test
  void theLauncherRefusesAHeapThatIsNoSizeBeforeBuildingOrStarting() throws Exception {
    Path launcher = Path.of("..", "chronix").toAbsolutePath().normalize();
    Process process = new ProcessBuilder("bash", launcher.toString(), "start", "--set", "jvm.heap=lots")
        .redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertTrue(process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS));
    assertEquals(2, process.exitValue(), output);
    assertTrue(output.contains("jvm.heap must be a size like 384m or 2g, not 'lots'"), output);
  }

  @Test
  void theLauncherGivesTheJvmTheConfiguredHeapAndOptions(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    assertEquals("java -Xmx384m -XX:+UseParallelGC -Xms192m -XX:NewSize=12m -XX:TieredStopAtLevel=1 "
        + "-XX:CompileThresholdScaling=0.3 -jar", javaCommand(Map.of(), "start"));
    Path config = dir.resolve("chronix.properties");
    java.nio.file.Files.writeString(config, "jvm.heap = 2g\njvm.options=-XX:+UseG1GC -Xss512k\n");
    assertEquals("java -Xmx2g -XX:+UseG1GC -Xss512k -Dextra=1 -jar",
        javaCommand(Map.of("CHRONIX_JAVA_OPTS", "-Dextra=1"), "start", "--config", config.toString()));
    assertEquals("java -Xmx1g -jar", javaCommand(Map.of(), "start", "--config", config.toString(),
        "--set", "jvm.heap=1g", "--set", "jvm.options="));
    // the forms with '=' that the server's usage shows count as well
    assertEquals("java -Xmx2g -XX:+UseG1GC -Xss512k -jar", javaCommand(Map.of(), "start", "--config=" + config));
    assertEquals("java -Xmx1g -jar", javaCommand(Map.of(), "start", "--config=" + config,
        "--set=jvm.heap=1g", "--set=jvm.options="));
    assertEquals("java -Xmx3g -XX:+UseG1GC -Xss512k -jar", javaCommand(Map.of(), "start", "--config", config.toString(),
        "--set=jvm.heap=1g", "--set", "jvm.heap=3g"));
    // a collector chosen in CHRONIX_JAVA_OPTS replaces the configured one (the JVM refuses two);
    // the configured options besides it stay
    assertEquals("java -Xmx384m -Xms192m -XX:NewSize=12m -XX:TieredStopAtLevel=1 -XX:CompileThresholdScaling=0.3 "
        + "-XX:+UseG1GC -Dx=1 -jar", javaCommand(Map.of("CHRONIX_JAVA_OPTS", "-XX:+UseG1GC -Dx=1"), "start"));
  }

  /**
   * The configured start of the heap is for the default heap: a smaller heap, from jvm.heap or an
   * -Xmx or -XX:MaxHeapSize of CHRONIX_JAVA_OPTS, starts whole instead of a JVM that refuses to start.
   */
  @Test
  void aHeapSmallerThanTheConfiguredStartStartsWhole() throws Exception {
    assertEquals("java -Xmx128m -XX:+UseParallelGC -Xms128m -XX:NewSize=12m -XX:TieredStopAtLevel=1 "
        + "-XX:CompileThresholdScaling=0.3 -jar", javaCommand(Map.of(), "start", "--set", "jvm.heap=128m"));
    assertEquals("java -Xmx384m -Xms100m -XX:NewSize=12m -Xmx100m -jar", javaCommand(
        Map.of("CHRONIX_JAVA_OPTS", "-Xmx100m"), "start", "--set", "jvm.options=-Xms192m -XX:NewSize=12m"));
    assertEquals("java -Xmx384m -Xms64m -XX:MaxHeapSize=64m -jar", javaCommand(
        Map.of("CHRONIX_JAVA_OPTS", "-XX:MaxHeapSize=64m"), "start", "--set", "jvm.options=-Xms192m"));
    // units compared as the JVM reads them: 196608k is 192m, not below it; 1g is above it
    assertEquals("java -Xmx196608k -Xms192m -jar",
        javaCommand(Map.of(), "start", "--set", "jvm.heap=196608k", "--set", "jvm.options=-Xms192m"));
    assertEquals("java -Xmx1g -Xms192m -jar",
        javaCommand(Map.of(), "start", "--set", "jvm.heap=1g", "--set", "jvm.options=-Xms192m"));
    assertEquals("java -Xmx196607k -Xms196607k -jar",
        javaCommand(Map.of(), "start", "--set", "jvm.heap=196607k", "--set", "jvm.options=-Xms192m"));
  }

  /** What the launcher passes, the JVM takes: the default options and a clamped start both run. */
  @Test
  void theJvmAcceptsTheLaunchersHeapOptions() throws Exception {
    for (String heap : java.util.List.of("384m", "128m")) {
      String command = javaCommand(Map.of(), "start", "--set", "jvm.heap=" + heap);
      java.util.List<String> jvm = new java.util.ArrayList<>(java.util.List.of(command.split(" ")));
      jvm.remove(jvm.size() - 1); // -jar
      jvm.set(0, Path.of(System.getProperty("java.home"), "bin", "java").toString());
      jvm.add("-version");
      Process process = new ProcessBuilder(jvm).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS));
      assertEquals(0, process.exitValue(), heap + ": " + output);
    }
  }

  /** The launcher's java command up to the jar, as CHRONIX_DRY_RUN=1 prints it. */
  private static String javaCommand(Map<String, String> env, String... args) throws Exception {
    Path launcher = Path.of("..", "chronix").toAbsolutePath().normalize();
    java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of("bash", launcher.toString()));
    command.addAll(java.util.List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().remove("CHRONIX_JAVA_OPTS");
    builder.environment().putAll(env);
    builder.environment().put("CHRONIX_DRY_RUN", "1");
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertTrue(process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS));
    assertEquals(0, process.exitValue(), output);
    return output.substring(0, output.indexOf(" -jar ") + " -jar".length());
  }
}
