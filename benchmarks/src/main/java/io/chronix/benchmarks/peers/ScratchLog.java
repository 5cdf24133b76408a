package io.chronix.benchmarks.peers;

import io.chronix.benchmarks.ImportBenchmark;
import io.chronix.ingest.wal.FsyncPolicy;
import io.chronix.ingest.wal.WriteAheadLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An empty write-ahead log in a directory of its own, without fsync (the disk is not what the
 * write-path benchmarks measure); closing it deletes the directory.
 */
final class ScratchLog implements AutoCloseable {

  private final Path directory;
  private final WriteAheadLog log;

  ScratchLog(String prefix) throws IOException {
    directory = Files.createTempDirectory(prefix);
    log = new WriteAheadLog(directory, 64L << 20, FsyncPolicy.NEVER, 0);
    log.replay((batch, segment) -> { }); // an empty log: opens its first segment
  }

  WriteAheadLog log() {
    return log;
  }

  /** Lets every entry written so far go, as a store's checkpoint would. */
  void letGo() throws IOException {
    log.roll();
    log.deleteBefore(log.currentSegment());
  }

  @Override
  public void close() throws IOException {
    log.close();
    ImportBenchmark.deleteRecursively(directory);
  }
}
