package io.chronix.ingest.cli;

import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.importer.CsvImporter;
import java.net.ConnectException;
import java.net.URI;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "import", description = "Load CSV files (or directories of them) into a running server.")
final class ImportCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Parameters(arity = "1..*", paramLabel = "<files>", description = "CSV files (.csv or .csv.gz) or directories")
  List<Path> files;

  @Option(names = "--zone", paramLabel = "<zone>", description = "zone of the CSV timestamps (default UTC)")
  ZoneId zone = ZoneId.of("UTC");

  @Option(names = "--parallel", paramLabel = "<n>", description = "files sent at once (default 2)")
  int parallel = 2;

  @Option(names = "--token", paramLabel = "<token>",
      description = "API token for a server with auth on (default: the environment variable CHRONIX_TOKEN)")
  String token = System.getenv("CHRONIX_TOKEN");

  @Override
  public Integer call() throws Exception {
    ServerConfig config = server.config();
    URI target = RunningServer.uri(config, "");
    CsvImporter importer = new CsvImporter(target, zone, System.err, System.console() != null).withToken(token);
    CsvImporter.Summary summary;
    try {
      summary = importer.importFiles(CsvImporter.expand(files), parallel);
    } catch (ConnectException e) {
      return RunningServer.unreachable(target);
    }
    System.out.printf("imported %,d points from %d files in %.1f s (%,.0f points/s)%n", summary.points(),
        summary.files() - summary.failures().size(), summary.nanos() / 1e9, summary.pointsPerSecond());
    for (String failure : summary.failures()) {
      System.err.println("chronix: failed: " + failure);
    }
    return summary.failures().isEmpty() ? 0 : 1;
  }
}
