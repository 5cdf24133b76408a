package io.chronix.ingest.protocol.influx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The word-at-a-time searches against a byte-by-byte one, at every place in and around the words. */
class ByteScanTest {

  @Test
  void findTheFirstOfOneOrTwoBytesAsAByteLoopDoes() {
    Random random = new Random(43);
    byte[] alphabet = {' ', ',', '\n', 'a', '0', 0, 1, (byte) 0x80, (byte) 0x81, (byte) 0xFF, 0x7F};
    for (int round = 0; round < 20_000; round++) {
      byte[] bytes = new byte[random.nextInt(40)];
      for (int i = 0; i < bytes.length; i++) { // mostly other bytes, the sought ones now and then, runs of them too
        bytes[i] = random.nextInt(4) == 0 ? alphabet[random.nextInt(alphabet.length)] : (byte) random.nextInt(256);
      }
      int from = random.nextInt(bytes.length + 1);
      int to = from + random.nextInt(bytes.length - from + 1);
      byte a = alphabet[random.nextInt(alphabet.length)];
      byte b = alphabet[random.nextInt(alphabet.length)];
      String where = "round " + round + ": [" + from + ", " + to + ") of " + java.util.Arrays.toString(bytes);
      assertEquals(byteLoop(bytes, from, to, a, a), ByteScan.indexOf(bytes, from, to, a), where + " for " + a);
      assertEquals(byteLoop(bytes, from, to, a, b), ByteScan.indexOfEither(bytes, from, to, a, b),
          where + " for " + a + " or " + b);
    }
  }

  private static int byteLoop(byte[] bytes, int from, int to, byte a, byte b) {
    int at = from;
    while (at < to && bytes[at] != a && bytes[at] != b) {
      at++;
    }
    return at;
  }
}
