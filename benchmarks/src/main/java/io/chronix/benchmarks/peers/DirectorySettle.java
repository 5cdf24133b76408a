package io.chronix.benchmarks.peers;

import io.chronix.benchmarks.ImportBenchmark;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Waits until a server's data directory stops changing, so that background merges after a load
 * end before its size is taken, for every server alike.
 */
public final class DirectorySettle {

  private DirectorySettle() {}

  public static void await(Path dir, Duration quietFor, Duration limit) throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    long last = -1;
    long stableSince = System.nanoTime();
    while (System.nanoTime() < deadline) {
      long size;
      try {
        size = ImportBenchmark.directoryBytes(dir);
      } catch (IOException | UncheckedIOException fileRenamedWhileWalking) {
        size = -2;
      }
      if (size != last) {
        last = size;
        stableSince = System.nanoTime();
      } else if (System.nanoTime() - stableSince >= quietFor.toNanos()) {
        return;
      }
      Thread.sleep(250);
    }
    throw new IllegalStateException(dir + " kept changing for " + limit);
  }
}
