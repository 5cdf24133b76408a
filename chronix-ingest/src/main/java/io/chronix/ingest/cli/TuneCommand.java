package io.chronix.ingest.cli;

import io.chronix.core.csv.P4CsvReader;
import io.chronix.core.csv.P4File;
import io.chronix.ingest.importer.CsvImporter;
import io.chronix.ingest.tune.Tuner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "tune", description = "Measure chunk sizes and compressions on training data (CSV) and recommend "
    + "settings (load them with start --config <file>).")
final class TuneCommand implements Callable<Integer> {

  @Parameters(arity = "1..*", paramLabel = "<files>", description = "training CSV files or directories")
  List<Path> files;

  @Option(names = "--out", paramLabel = "<file>", description = "write the recommended settings here (default: print them)")
  Path out;

  @Option(names = "--zone", paramLabel = "<zone>", description = "zone of the CSV timestamps (default UTC)")
  ZoneId zone = ZoneId.of("UTC");

  @Override
  public Integer call() throws Exception {
    List<P4File> training = new ArrayList<>();
    for (Path file : CsvImporter.expand(files)) {
      training.add(new P4CsvReader(zone).read(file));
    }
    Tuner tuner = Tuner.standard();
    List<Tuner.Row> rows = tuner.measure(training);
    System.out.println("estimated bytes per point in the store, by metric pattern and chunk compression/points:");
    StringBuilder header = new StringBuilder(String.format("%-60s %6s %9s", "pattern", "series", "points"));
    for (Tuner.Candidate candidate : tuner.candidates()) {
      header.append(String.format(" %11s", candidate.label()));
    }
    System.out.println(header.append("  best"));
    for (Tuner.Row row : rows) {
      StringBuilder line = new StringBuilder(String.format("%-60s %6d %9d", abbreviate(row.pattern()), row.series(),
          row.points()));
      for (double cost : row.bytesPerPoint()) {
        line.append(String.format(" %11.3f", cost));
      }
      System.out.println(line.append("  ").append(row.best().label()));
    }
    Map<String, String> settings = tuner.recommendation(rows, training);
    String config = Tuner.properties(settings, "recommended by chronix tune from " + training.size() + " series");
    if (out != null) {
      Files.writeString(out, config);
      System.out.println("wrote " + out + "; use it with: chronix start --config " + out);
    } else {
      System.out.print(config);
    }
    return 0;
  }

  private static String abbreviate(String text) {
    return text.length() <= 60 ? text : text.substring(0, 28) + "..." + text.substring(text.length() - 29);
  }
}
