package io.chronix.solr.response;

import java.nio.charset.StandardCharsets;

/**
 * A series' points as the JSON bytes {@link SeriesJson} wrote (UTF-8), standing in a document's
 * {@code points} field. Solr's writers take a field value as text ({@link #toString}), and for a
 * whole series turning the bytes into a String and the String back into bytes was a fifth of a
 * raw fetch's server time. While the Chronix JSON writer writes a response ({@link #bytesWanted}),
 * the text is not made: {@link #toString} hands this value to the writer on the same thread
 * ({@link #takeBytes}), which copies the bytes into the answer as they are.
 */
final class RawJson implements CharSequence {

  private static final ThreadLocal<Boolean> BYTES_WANTED = new ThreadLocal<>();
  private static final ThreadLocal<RawJson> HANDED = new ThreadLocal<>();
  /** What {@link #toString} gives the Chronix JSON writer: a stand-in it trades for the bytes. */
  static final String STAND_IN = new String("<raw json>");

  private final byte[] utf8;
  private final int length;
  private String text;

  RawJson(byte[] utf8, int length) {
    this.utf8 = utf8;
    this.length = length;
  }

  /** The text (made once); for the Chronix JSON writer a stand-in for the bytes. */
  @Override
  public String toString() {
    if (Boolean.TRUE.equals(BYTES_WANTED.get())) {
      HANDED.set(this);
      return STAND_IN;
    }
    return text();
  }

  /** The bytes, {@code [0, byteLength())} of the array. */
  byte[] bytes() {
    return utf8;
  }

  int byteLength() {
    return length;
  }

  @Override
  public int length() {
    return text().length();
  }

  @Override
  public char charAt(int index) {
    return text().charAt(index);
  }

  @Override
  public CharSequence subSequence(int start, int end) {
    return text().subSequence(start, end);
  }

  /** The text, made once, whoever asks. */
  String text() {
    if (text == null) {
      text = new String(utf8, 0, length, StandardCharsets.UTF_8);
    }
    return text;
  }

  /** Runs {@code write} with raw values handing over their bytes instead of their text. */
  static void bytesWanted(IoAction write) throws java.io.IOException {
    Boolean before = BYTES_WANTED.get();
    BYTES_WANTED.set(Boolean.TRUE);
    try {
      write.run();
    } finally {
      if (before == null) {
        BYTES_WANTED.remove();
      } else {
        BYTES_WANTED.set(before);
      }
      HANDED.remove();
    }
  }

  /** The raw value whose stand-in {@code text} is, or null when it is real text. */
  static RawJson takeBytes(String text) {
    if (text != STAND_IN) {
      return null;
    }
    RawJson handed = HANDED.get();
    HANDED.remove();
    return handed;
  }

  /** An action that writes. */
  @FunctionalInterface
  interface IoAction {
    void run() throws java.io.IOException;
  }
}
