package io.chronix.ingest.protocol.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** snappy unpacks its library under the data directory, where a start removes what killed runs left. */
class SnappyLibraryDirectoryTest {

  @Test
  void theDataDirectoryTakesTheLibraryAndLosesKilledRunsCopies(@TempDir Path dataDir) throws Exception {
    assumeFalse(SnappyLibraryDirectory.chosenAtStart(), "this JVM was told where snappy unpacks");
    String before = System.getProperty(SnappyLibraryDirectory.PROPERTY);
    Path directory = SnappyLibraryDirectory.of(dataDir);
    Files.createDirectories(directory);
    Path killedRuns = Files.write(directory.resolve("snappy-1.1.10-0f1e2d3c-libsnappyjava.so"), new byte[] {1});
    Path other = Files.write(directory.resolve("README"), new byte[] {2});
    try {
      SnappyLibraryDirectory.under(dataDir);
      assertEquals(directory.toAbsolutePath().toString(), System.getProperty(SnappyLibraryDirectory.PROPERTY));
      assertFalse(Files.exists(killedRuns), "a killed run's copy is removed");
      assertTrue(Files.exists(other), "nothing else is");
    } finally {
      if (before == null) {
        System.clearProperty(SnappyLibraryDirectory.PROPERTY);
      } else {
        System.setProperty(SnappyLibraryDirectory.PROPERTY, before);
      }
    }
  }

  /** A JVM started with -Dorg.xerial.snappy.tempdir keeps that place; the data directory gets nothing. */
  @Test
  void aPlaceChosenAtTheJvmsStartStands(@TempDir Path dataDir) throws Exception {
    String before = System.getProperty(SnappyLibraryDirectory.PROPERTY);
    SnappyLibraryDirectory.under(dataDir, "/chosen/by/the/user");
    assertEquals(before, System.getProperty(SnappyLibraryDirectory.PROPERTY), "the setting is left as it is");
    assertFalse(Files.exists(SnappyLibraryDirectory.of(dataDir)));
  }
}
