package io.chronix.ingest.cli;

import io.chronix.ingest.config.ServerConfig;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code backup} and {@code restore}: ask the running server to do it (docs/lifecycle.md). */
final class BackupCommands {

  private BackupCommands() {}

  /** What both share: which server, which directory, which token; the server does the work. */
  abstract static class AskServer implements Callable<Integer> {
    @Mixin ServerOptions server;
    @Parameters(paramLabel = "<dir>", description = "the backup's directory, on the server's machine")
    Path dir;
    @Option(names = "--token", paramLabel = "<token>", description = "API token with the admin role (or CHRONIX_TOKEN)")
    String token = System.getenv("CHRONIX_TOKEN");

    abstract String what();

    @Override
    public Integer call() throws Exception {
      return ask(server.config(), what(), dir, token);
    }
  }

  @Command(name = "backup", description = "Back up a running server's store into a new or empty directory (its "
      + "buffers are written first).")
  static final class Backup extends AskServer {
    @Override
    String what() {
      return "backup";
    }
  }

  @Command(name = "restore", description = "Replace a running server's store with a backup (everything stored "
      + "since is replaced).")
  static final class Restore extends AskServer {
    @Override
    String what() {
      return "restore";
    }
  }

  private static int ask(ServerConfig config, String what, Path dir, String token) throws Exception {
    URI target = RunningServer.uri(config, "/admin/" + what + "?dir="
        + URLEncoder.encode(dir.toAbsolutePath().normalize().toString(), StandardCharsets.UTF_8));
    HttpRequest.Builder request = HttpRequest.newBuilder(target).timeout(Duration.ofHours(6))
        .POST(HttpRequest.BodyPublishers.noBody());
    CompletableFuture<HttpResponse<String>> answer = RunningServer.client()
        .sendAsync(RunningServer.withToken(request, token).build(), HttpResponse.BodyHandlers.ofString());
    HttpResponse<String> response;
    try {
      response = await(answer, what);
    } catch (ConnectException e) {
      return RunningServer.unreachable(target);
    }
    if (response.statusCode() == 200) {
      System.out.println(what + " done: " + response.body());
      return 0;
    }
    System.err.println("chronix: " + what + " refused (" + response.statusCode() + "): " + response.body());
    return response.statusCode() == 400 ? ChronixCli.USAGE : 1;
  }

  /** The answer; on a terminal a bar shows the time passing meanwhile. */
  private static HttpResponse<String> await(CompletableFuture<HttpResponse<String>> answer, String what)
      throws Exception {
    ProgressBar bar = System.console() == null ? null : new ProgressBarBuilder().setTaskName(what)
        .setInitialMax(-1).setConsumer(new ConsoleProgressBarConsumer(System.err)).build();
    try {
      while (true) {
        try {
          return answer.get(200, TimeUnit.MILLISECONDS);
        } catch (TimeoutException stillRunning) {
          if (bar != null) {
            bar.step();
          }
        } catch (java.util.concurrent.ExecutionException e) {
          throw e.getCause() instanceof Exception cause ? cause : e;
        }
      }
    } finally {
      if (bar != null) {
        bar.close();
      }
    }
  }
}
