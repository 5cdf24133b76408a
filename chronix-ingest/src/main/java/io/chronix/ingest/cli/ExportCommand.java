package io.chronix.ingest.cli;

import io.chronix.ingest.config.ServerConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "export", description = "Write series of a running server in VictoriaMetrics' JSON-lines format "
    + "(GET /api/v1/export) to a file, for import into another store (docs/lifecycle.md).")
final class ExportCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Option(names = "--match", paramLabel = "<selector>", required = true,
      description = "PromQL series selector, repeatable (e.g. '{__name__=~\".+\"}' for everything)")
  List<String> selectors;

  @Option(names = "--start", paramLabel = "<time>", description = "Unix seconds or RFC 3339 (default: all time)")
  String start;

  @Option(names = "--end", paramLabel = "<time>", description = "Unix seconds or RFC 3339 (default: all time)")
  String end;

  @Option(names = "--out", paramLabel = "<file>", required = true, description = "file to write (replaced)")
  Path out;

  @Option(names = "--token", paramLabel = "<token>", description = "API token with the read role (or CHRONIX_TOKEN)")
  String token = System.getenv("CHRONIX_TOKEN");

  @Override
  public Integer call() throws Exception {
    ServerConfig config = server.config();
    StringBuilder query = new StringBuilder();
    for (String selector : selectors) {
      query.append(query.length() == 0 ? "?" : "&").append("match[]=").append(encode(selector));
    }
    if (start != null) {
      query.append("&start=").append(encode(start));
    }
    if (end != null) {
      query.append("&end=").append(encode(end));
    }
    URI target = RunningServer.uri(config, "/api/v1/export" + query);
    HttpResponse<InputStream> response;
    try {
      response = RunningServer.client().send(RunningServer.withToken(HttpRequest.newBuilder(target).GET(), token)
          .build(), HttpResponse.BodyHandlers.ofInputStream());
    } catch (ConnectException e) {
      return RunningServer.unreachable(target);
    }
    if (response.statusCode() != 200) {
      try (InputStream body = response.body()) {
        System.err.println("chronix: export refused (" + response.statusCode() + "): "
            + new String(body.readAllBytes(), StandardCharsets.UTF_8));
      }
      return response.statusCode() == 400 ? ChronixCli.USAGE : 1;
    }
    long[] counts = copy(response.body(), out);
    System.out.printf("exported %,d series (%,d bytes) to %s%n", counts[0], counts[1], out);
    return 0;
  }

  /** Streams the answer into the file; on a terminal a bar counts the series. Returns series and bytes. */
  private static long[] copy(InputStream body, Path file) throws IOException {
    ProgressBar bar = System.console() == null ? null : new ProgressBarBuilder().setTaskName("export")
        .setInitialMax(-1).setUnit(" series", 1).setConsumer(new ConsoleProgressBarConsumer(System.err)).build();
    long series = 0;
    long bytes = 0;
    byte[] buffer = new byte[1 << 16];
    try (InputStream in = body; OutputStream target = Files.newOutputStream(file)) {
      int read;
      while ((read = in.read(buffer)) > 0) {
        target.write(buffer, 0, read);
        bytes += read;
        for (int i = 0; i < read; i++) {
          if (buffer[i] == '\n') {
            series++;
            if (bar != null) {
              bar.step();
            }
          }
        }
      }
    } finally {
      if (bar != null) {
        bar.close();
      }
    }
    return new long[] {series, bytes};
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }
}
