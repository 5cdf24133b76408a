package io.chronix.ingest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.config.ServerConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every example of README.md's "Use" section, pasted in order against a fresh server, answers what
 * the README says: each {@code sh} block is run (curl through bash, {@code ./chronix import|tune}
 * through the CLI in this JVM, pointed at the test server), and every line of the {@code text}
 * block after it must appear in what the commands printed.
 */
class ReadmeExamplesTest {

  private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
  private static final String README_URL = "http://127.0.0.1:8983";

  @TempDir Path dir;

  record Example(List<String> commands, List<String> expected, int line) {}

  @Test
  void examplesAnswerWhatTheReadmeSays() throws Exception {
    List<Example> examples = examples(Files.readAllLines(REPOSITORY.resolve("README.md")));
    assertTrue(examples.size() >= 6, "examples found: " + examples.size());
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dir.resolve("data").toString())).start()) {
      for (Example example : examples) {
        StringBuilder output = new StringBuilder();
        for (String command : example.commands()) {
          output.append(run(command, server)).append('\n');
        }
        String printed = output.toString().replace(dir + "/", "");
        for (String fragment : example.expected()) {
          assertTrue(printed.contains(fragment), "README line " + example.line() + ": expected '" + fragment
              + "' in the output of " + example.commands() + ":\n" + printed);
        }
      }
    }
  }

  /** The sh blocks of the Use section with the text block that follows each. */
  static List<Example> examples(List<String> readme) {
    List<Example> examples = new ArrayList<>();
    int from = readme.indexOf("## Use");
    int to = readme.indexOf("## Grafana");
    assertTrue(from >= 0 && to > from, "README sections 'Use' and 'Grafana'");
    for (int i = from; i < to; i++) {
      if (!readme.get(i).equals("```sh")) {
        continue;
      }
      int line = i + 1;
      List<String> commands = new ArrayList<>();
      StringBuilder command = new StringBuilder();
      for (i++; !readme.get(i).equals("```"); i++) {
        String text = readme.get(i);
        if (text.endsWith("\\")) {
          command.append(text, 0, text.length() - 1);
          continue;
        }
        commands.add(command.append(text).toString().trim());
        command.setLength(0);
      }
      List<String> expected = new ArrayList<>();
      if (readme.get(i + 1).equals("```text")) {
        for (i += 2; !readme.get(i).equals("```"); i++) {
          if (!readme.get(i).isBlank()) {
            expected.add(readme.get(i));
          }
        }
      }
      examples.add(new Example(commands, expected, line));
    }
    return examples;
  }

  private String run(String command, ChronixServer server) throws Exception {
    if (command.startsWith("curl ")) {
      return curl(command.replace(README_URL, server.baseUrl()));
    }
    if (command.startsWith("./chronix ")) {
      String withoutComment = command.replaceAll("\\s+#.*$", "");
      List<String> args = new ArrayList<>(List.of(withoutComment.substring("./chronix ".length()).split("\\s+")));
      for (int i = 1; i < args.size(); i++) {
        if (args.get(i).startsWith("../")) {
          args.set(i, REPOSITORY.resolve(args.get(i)).normalize().toString()); // as run from the repository
        } else if (args.get(i - 1).equals("--out")) {
          args.set(i, dir.resolve(args.get(i)).toString()); // the user's working directory
        }
      }
      if (args.get(0).equals("import")) {
        int port = Integer.parseInt(server.baseUrl().substring(server.baseUrl().lastIndexOf(':') + 1));
        args.addAll(1, List.of("--http-port", String.valueOf(port)));
      }
      return cli(args.toArray(new String[0]));
    }
    fail("README example the test cannot run: " + command);
    return "";
  }

  private String curl(String command) throws Exception {
    // -sS: no progress meter, errors still shown
    Process process = new ProcessBuilder("bash", "-c", "curl -sS " + command.substring("curl ".length()))
        .directory(dir.toFile()).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), command);
    assertEquals(0, process.exitValue(), command + ": " + output);
    return output;
  }

  private static String cli(String... args) {
    PrintStream out = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    int exit;
    try (PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
      System.setOut(capture);
      exit = ChronixCli.run(args);
    } finally {
      System.setOut(out);
    }
    String printed = captured.toString(StandardCharsets.UTF_8);
    assertEquals(0, exit, "chronix " + String.join(" ", args) + ": " + printed);
    return printed;
  }
}
