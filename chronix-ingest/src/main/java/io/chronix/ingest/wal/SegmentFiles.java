package io.chronix.ingest.wal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The file system operations of the write-ahead log, in one place so that tests can make them
 * fail as a full or failing disk does.
 */
public interface SegmentFiles {

  /** Creates a new segment file for appending; it must not exist yet. */
  FileChannel create(Path file) throws IOException;

  /** Makes creations and deletions of entries in the directory durable. */
  void syncDirectory(Path dir) throws IOException;

  void delete(Path file) throws IOException;

  /** The real file system. */
  SegmentFiles DISK = new SegmentFiles() {
    @Override
    public FileChannel create(Path file) throws IOException {
      return FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    }

    @Override
    public void syncDirectory(Path dir) throws IOException {
      try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
        directory.force(true);
      }
    }

    @Override
    public void delete(Path file) throws IOException {
      Files.deleteIfExists(file);
    }
  };
}
