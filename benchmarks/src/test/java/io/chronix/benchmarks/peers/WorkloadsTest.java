package io.chronix.benchmarks.peers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkloadsTest {

  /**
   * P4's line protocol made alone, as the request path's benchmark makes it, is the comparison's
   * own load: the same bodies byte for byte, values and CSV bytes.
   */
  @Test
  void p4LineProtocolAloneIsTheComparisonsLoad(@TempDir Path dir) throws Exception {
    List<Path> files;
    try (Stream<Path> all = Files.list(Path.of(System.getProperty("chronix.p4.dir", "../../shared/data/p4")))) {
      files = all.filter(f -> f.toString().endsWith(".csv.gz")).sorted().limit(3).toList();
    }
    assertEquals(3, files.size());
    for (Path file : files) {
      Files.copy(file, dir.resolve(file.getFileName()));
    }
    IngestLoad comparisons = Workloads.prepare(dir, 1).p4LineProtocol;
    IngestLoad alone = Workloads.p4LineProtocol(dir);
    assertTrue(comparisons.values() > 0);
    assertEquals(comparisons.values(), alone.values());
    assertEquals(comparisons.csvBytes(), alone.csvBytes());
    assertEquals(comparisons.bodies().size(), alone.bodies().size());
    for (int i = 0; i < alone.bodies().size(); i++) {
      assertArrayEquals(comparisons.bodies().get(i), alone.bodies().get(i));
    }
  }
}
