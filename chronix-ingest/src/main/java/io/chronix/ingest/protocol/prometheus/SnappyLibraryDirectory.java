package io.chronix.ingest.protocol.prometheus;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where snappy's native library is unpacked. snappy-java copies it out of its jar into a file with
 * a name of its own at every start and deletes it at a clean exit only, so every killed server left
 * 280 kB in the machine's temporary directory (one build's crash tests, 21 files), and a server
 * restarted in a loop would fill it. The copy goes under the data directory instead, and a start
 * removes what a killed run left there: a data directory belongs to one server at a time. Where
 * the JVM was started with {@code -Dorg.xerial.snappy.tempdir}, that choice stands.
 */
public final class SnappyLibraryDirectory {

  static final String PROPERTY = "org.xerial.snappy.tempdir";
  /** Below the data directory. */
  private static final String NAME = "native";
  /** The JVM's own setting, read before this class sets any. */
  private static final String CHOSEN_AT_START = System.getProperty(PROPERTY);

  private SnappyLibraryDirectory() {}

  /** Whether the JVM was started with a place for snappy's library, which then stands. */
  static boolean chosenAtStart() {
    return CHOSEN_AT_START != null;
  }

  /** The directory under {@code dataDir} that holds the unpacked library: no stored data. */
  public static Path of(Path dataDir) {
    return dataDir.resolve(NAME);
  }

  /**
   * Makes {@code dataDir}'s directory the place snappy unpacks into, unless the JVM was told
   * another, and removes the copies killed runs left there. Before snappy is first used: it reads
   * the setting once.
   */
  public static void under(Path dataDir) throws IOException {
    under(dataDir, CHOSEN_AT_START);
  }

  /** As {@link #under(Path)}, with the JVM's own setting given ({@code null}: none). */
  static void under(Path dataDir, String chosenAtStart) throws IOException {
    if (chosenAtStart != null) {
      return;
    }
    Path directory = of(dataDir);
    Files.createDirectories(directory);
    try (DirectoryStream<Path> left = Files.newDirectoryStream(directory, "snappy-*")) {
      for (Path copy : left) {
        Files.deleteIfExists(copy);
      }
    }
    System.setProperty(PROPERTY, directory.toAbsolutePath().toString());
  }
}
