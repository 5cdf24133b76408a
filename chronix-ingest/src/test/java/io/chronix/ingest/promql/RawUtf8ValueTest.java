package io.chronix.ingest.promql;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RawUtf8ValueTest {

  private static final byte[] TEXT = "[[1,\"µ\"]]tail".getBytes(StandardCharsets.UTF_8);
  private static final int LENGTH = TEXT.length - "tail".length();

  /** The given bytes only, where they fit to the last byte, and -1 (nothing written) one byte short. */
  @Test
  void appendsWhereItFits() {
    RawUtf8Value value = new RawUtf8Value(TEXT, LENGTH);
    byte[] exact = new byte[3 + LENGTH];
    assertEquals(LENGTH, value.appendUnquotedUTF8(exact, 3));
    assertEquals("[[1,\"µ\"]]", new String(exact, 3, LENGTH, StandardCharsets.UTF_8));
    assertEquals(-1, value.appendUnquotedUTF8(new byte[2 + LENGTH], 3));
    assertEquals(-1, value.putUnquotedUTF8(ByteBuffer.allocate(LENGTH - 1)));
    assertEquals(LENGTH, value.putUnquotedUTF8(ByteBuffer.allocate(LENGTH)));

    String chars = "[[1,\"µ\"]]";
    assertEquals(chars, value.getValue());
    assertEquals(chars.length(), value.charLength());
    char[] room = new char[chars.length()];
    assertEquals(chars.length(), value.appendUnquoted(room, 0));
    assertEquals(-1, value.appendUnquoted(room, 1));
    assertArrayEquals(java.util.Arrays.copyOf(TEXT, LENGTH), value.asUnquotedUTF8());
    assertThrows(UnsupportedOperationException.class, value::asQuotedUTF8);
  }
}
