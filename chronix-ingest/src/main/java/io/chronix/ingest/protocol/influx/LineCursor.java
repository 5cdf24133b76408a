package io.chronix.ingest.protocol.influx;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads one line of line protocol from the request's bytes. Every character the syntax gives a
 * meaning ({@code , = space \ "}) is ASCII, and UTF-8 never uses ASCII bytes inside a multi-byte
 * character, so the line is scanned as bytes and only the text kept (names, tags, strings) is
 * decoded. A backslash escapes the character after it where that one is special.
 */
final class LineCursor {

  byte[] text;
  int position;
  int start;
  int end;
  /** Escaped text being assembled by {@link #readUntil}; grown as needed, reused across lines. */
  private byte[] scratch = new byte[64];

  void reset(byte[] text, int start, int end) {
    this.text = text;
    this.position = start;
    this.start = start;
    this.end = end;
  }

  boolean atEnd() {
    return position >= end;
  }

  char peek() {
    return atEnd() ? '\0' : (char) (text[position] & 0xFF);
  }

  boolean consume(char c) {
    if (!atEnd() && text[position] == c) {
      position++;
      return true;
    }
    return false;
  }

  // The scans below keep array, position and end in locals: the JIT's quick compiler, which the
  // server runs with, reloads fields on every iteration otherwise.

  void skipSpaces() {
    byte[] t = text;
    int p = position;
    int e = end;
    while (p < e && t[p] == ' ') {
      p++;
    }
    position = p;
  }

  /** Moves past measurement and tag set: to the first space not escaped. */
  void skipKey() {
    byte[] t = text;
    int p = position;
    int e = end;
    while (p < e) {
      byte c = t[p];
      if (c == '\\' && p + 1 < e) {
        p += 2;
      } else if (c == ' ') {
        break;
      } else {
        p++;
      }
    }
    position = p;
  }

  /** Moves to the next {@code stop} or space (a raw value's end). */
  void skipRaw(char stop) {
    position = ByteScan.indexOfEither(text, position, end, (byte) stop, (byte) ' ');
  }

  /**
   * Reads up to {@code stop} or any of {@code alsoStop}, resolving escapes of those characters
   * and of the backslash itself; a backslash before anything else is kept as it is.
   */
  String readUntil(char stop, String alsoStop, boolean forbidEmpty) {
    int length = 0;
    boolean escaped = false;
    int from = position;
    while (!atEnd()) {
      byte c = text[position];
      if (c == '\\' && position + 1 < end) {
        byte next = text[position + 1];
        if (next == stop || alsoStop.indexOf(next) >= 0 || next == '\\' || next == '=' || next == ',' || next == ' ') {
          if (!escaped) {
            escaped = true;
            length = copy(from, position, 0);
          }
          length = append(next, length);
          position += 2;
          continue;
        }
      }
      if (c == stop || alsoStop.indexOf(c) >= 0) {
        break;
      }
      if (escaped) {
        length = append(c, length);
      }
      position++;
    }
    String result = escaped ? new String(scratch, 0, length, StandardCharsets.UTF_8)
        : new String(text, from, position - from, StandardCharsets.UTF_8);
    if (forbidEmpty && result.isEmpty()) {
      throw new IllegalArgumentException("empty key or value at column " + (position - start + 1));
    }
    return result;
  }

  /**
   * A double-quoted string field value; inside it a backslash escapes {@code "} and {@code \\},
   * and stays literal before anything else.
   */
  String readQuoted(String field) {
    position++; // the opening quote
    int length = 0;
    while (position < end) {
      byte c = text[position];
      if (c == '\\' && position + 1 < end && (text[position + 1] == '"' || text[position + 1] == '\\')) {
        length = append(text[position + 1], length);
        position += 2;
      } else if (c == '"') {
        position++;
        return new String(scratch, 0, length, StandardCharsets.UTF_8);
      } else {
        length = append(c, length);
        position++;
      }
    }
    throw new IllegalArgumentException("field '" + field + "': string value has no closing quote");
  }

  /** Whether {@code [from, to)} holds exactly the bytes of {@code other}. */
  boolean regionEquals(int from, int to, byte[] other) {
    return to - from == other.length && Arrays.equals(text, from, to, other, 0, other.length);
  }

  String line() {
    return new String(text, start, end - start, StandardCharsets.UTF_8);
  }

  private int copy(int from, int to, int length) {
    for (int i = from; i < to; i++) {
      length = append(text[i], length);
    }
    return length;
  }

  private int append(byte b, int length) {
    if (length == scratch.length) {
      scratch = Arrays.copyOf(scratch, length * 2);
    }
    scratch[length] = b;
    return length + 1;
  }
}
