package io.chronix.ingest.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.codec.Compressions;
import io.chronix.core.csv.P4CsvReader;
import io.chronix.core.csv.P4File;
import io.chronix.ingest.cli.ChronixCliAccess;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.semantic.SemanticRule;
import io.chronix.ingest.semantic.SemanticRules;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TunerTest {

  @TempDir Path dir;

  private static List<Path> p4(String... parts) throws IOException {
    Path p4 = Path.of(System.getProperty("chronix.p4.dir", "../shared/data/p4"));
    try (Stream<Path> files = Files.list(p4)) {
      return files.filter(f -> Stream.of(parts).anyMatch(part -> f.getFileName().toString().contains(part))).sorted().toList();
    }
  }

  @Test
  void patternsGroupNamesBeforeTheirLastSeparator() {
    assertEquals("java.lang:type=Memory/HeapMemoryUsage/*", Tuner.pattern("java.lang:type=Memory/HeapMemoryUsage/used"));
    assertEquals("\\CPU\\*", Tuner.pattern("\\CPU\\us"));
    assertEquals("cpu.*", Tuner.pattern("cpu.idle"));
    assertEquals("load", Tuner.pattern("load"));
  }

  @Test
  void sharedTimestampsMakeUncompressedBlobsCheaperInTheStore() throws IOException {
    List<P4File> memory = new ArrayList<>();
    for (Path file : p4("MemoryPool-Usage-used", "MemoryPool-Usage-committed")) {
      P4File series = new P4CsvReader().read(file);
      series.points().sortAndDeduplicate();
      memory.add(series);
    }
    assertTrue(memory.size() >= 4, "training series");
    long none = StorageEstimate.bytes(memory, 8192, Compressions.NONE);
    long gzip = StorageEstimate.bytes(memory, 8192, Compressions.GZIP);
    assertTrue(none < gzip, "the block compression sees across series only without per-chunk gzip: " + none + " vs " + gzip);
  }

  @Test
  void theRecommendationLoadsAsServerConfiguration() throws Exception {
    Path training = dir.resolve("training");
    Files.createDirectories(training);
    for (Path file : p4("\\CPU\\", "HeapMemoryUsage")) {
      Files.copy(file, training.resolve(file.getFileName()));
    }
    Path out = dir.resolve("tuned.properties");
    String printed = ChronixCliAccess.run("tune", "--out", out.toString(), training.toString());
    assertTrue(printed.contains("pattern") && printed.contains("none/8192") && printed.contains("gzip/1024"), printed);
    assertTrue(printed.contains("\\CPU\\*"), printed);

    ServerConfig config = ServerConfig.defaults().withFile(out);
    assertTrue(List.of("none", "gzip:6").contains(config.codec().compression().name()), config.codec().compression().name());
    assertTrue(config.chunkMaxPoints() >= 1024);
    SemanticRules rules = SemanticRules.parse(config.semanticRules(), config.chunkMaxPoints(), config.codec().compression());
    for (String rule : config.semanticRules().split(" \\| ")) {
      if (rule.isBlank()) {
        continue;
      }
      String glob = rule.substring(0, rule.indexOf(" -> "));
      String example = glob.replace("*", "x");
      SemanticRule matched = rules.ruleFor(example).orElseThrow(() -> new AssertionError("no rule for " + example));
      assertTrue(!matched.isLossy(), "tuned rules are lossless: " + rule);
    }
    List<P4File> series = new ArrayList<>();
    try (Stream<Path> files = Files.list(training)) {
      for (Path file : files.sorted().toList()) {
        series.add(new P4CsvReader().read(file));
      }
    }
    Tuner tuner = Tuner.standard();
    Map<String, String> recommended = tuner.recommendation(tuner.measure(series), series);
    assertEquals(recommended.get("semantic.rules"), config.semanticRules(), "backslashes survive the properties file");
    assertEquals(recommended.get("chunk.maxPoints"), String.valueOf(config.chunkMaxPoints()));
  }

  @Test
  void propertiesKeepBackslashesOfMetricNames() throws IOException {
    String rules = "\\CPU\\* -> chunk=8192 compression=none | a.b* -> chunk=1024 compression=none";
    Path file = dir.resolve("rules.properties");
    Files.writeString(file, Tuner.properties(Map.of("semantic.rules", rules, "chunk.maxPoints", "4096"), "test"));
    ServerConfig config = ServerConfig.defaults().withFile(file);
    assertEquals(rules, config.semanticRules());
    SemanticRules parsed = SemanticRules.parse(config.semanticRules(), 4096, Compressions.NONE);
    assertEquals(8192, parsed.ruleFor("\\CPU\\us").orElseThrow().chunker().maxPoints());
  }
}
