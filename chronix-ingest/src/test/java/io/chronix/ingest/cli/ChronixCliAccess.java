package io.chronix.ingest.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs the CLI in-process for tests of other packages and returns what it printed. */
public final class ChronixCliAccess {

  private ChronixCliAccess() {}

  public static String run(String... args) {
    PrintStream original = System.out;
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
    int code;
    try {
      code = ChronixCli.run(args);
    } finally {
      System.setOut(original);
    }
    if (code != 0) {
      throw new AssertionError("chronix " + String.join(" ", args) + " exited " + code + ":\n" + buffer);
    }
    return buffer.toString(StandardCharsets.UTF_8);
  }
}
