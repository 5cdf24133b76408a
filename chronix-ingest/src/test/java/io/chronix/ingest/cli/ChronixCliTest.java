package io.chronix.ingest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
  void usageErrorsExitWithTwo() throws Exception {
    String err = captureErr(() -> assertEquals(2, ChronixCli.run(new String[] {"start", "--bogus", "1"})));
    assertTrue(err.contains("unknown option --bogus"), err);
    err = captureErr(() -> assertEquals(2, ChronixCli.run(new String[] {"import"})));
    assertTrue(err.contains("at least one file"), err);
    err = captureErr(() -> assertEquals(2, ChronixCli.run(new String[] {"start", "--http-port", "x"})));
    assertTrue(err.contains("http.port"), err);
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
}
