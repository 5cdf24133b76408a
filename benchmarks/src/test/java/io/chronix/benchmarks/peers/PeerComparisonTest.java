package io.chronix.benchmarks.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class PeerComparisonTest {

  @Test
  void aFreshDirectoryIsDeletedAndItsLogTooWhenTheWorkSucceeds() throws Exception {
    AtomicReference<Path> seenDir = new AtomicReference<>();
    AtomicReference<Path> seenLog = new AtomicReference<>();
    String answer = PeerComparison.onFreshDirectory("test", (dir, log) -> {
      assertTrue(Files.isDirectory(dir));
      assertFalse(log.startsWith(dir), "the log lies outside the data directory");
      Files.writeString(dir.resolve("file"), "data");
      seenDir.set(dir);
      seenLog.set(log);
      return "done";
    });
    assertEquals("done", answer);
    assertFalse(Files.exists(seenDir.get()));
    assertFalse(Files.exists(seenLog.get()));
  }

  @Test
  void whenTheWorkFailsTheDirectoryIsDeletedAndTheLogKept() throws Exception {
    AtomicReference<Path> seenDir = new AtomicReference<>();
    AtomicReference<Path> seenLog = new AtomicReference<>();
    IllegalStateException failure = assertThrows(IllegalStateException.class,
        () -> PeerComparison.onFreshDirectory("test", (dir, log) -> {
          seenDir.set(dir);
          seenLog.set(log);
          throw new IllegalStateException("server did not start");
        }));
    assertEquals("server did not start", failure.getMessage());
    assertFalse(Files.exists(seenDir.get()));
    assertTrue(Files.exists(seenLog.get()));
    Files.delete(seenLog.get());
  }
}
