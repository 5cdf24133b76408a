package io.chronix.ingest.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class FlusherTest {

  @Test
  void reliefWritesTheBandBetweenTwoThirdsAndHalfButNeverEveryBuffer() {
    long budget = 600;
    try (Flusher flusher = new Flusher(null, null, Duration.ofHours(1), budget)) {
      assertEquals(300, flusher.reliefTarget(0), "down to half of the budget");
      assertEquals(300, flusher.reliefTarget(200));
      // series that fill most of the pressure level keep half of the points above them
      assertEquals(350, flusher.reliefTarget(300));
      assertEquals(395, flusher.reliefTarget(390));
    }
  }
}
