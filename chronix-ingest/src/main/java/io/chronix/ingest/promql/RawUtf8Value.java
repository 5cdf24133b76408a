package io.chronix.ingest.promql;

import com.fasterxml.jackson.core.SerializableString;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Text already encoded as UTF-8, handed to Jackson as a raw value
 * ({@link com.fasterxml.jackson.core.JsonGenerator#writeRawValue(SerializableString)}): a byte
 * generator copies it into its buffer, or writes it through where it does not fit, where a char
 * array given as a raw value is encoded a char at a time. Only the unquoted forms a raw value is
 * written in are offered; asking for a quoted form is a programming error.
 */
final class RawUtf8Value implements SerializableString {

  private final byte[] bytes;
  private final int length;

  /** The first {@code length} bytes of {@code bytes}, which the caller leaves unchanged while Jackson writes them. */
  RawUtf8Value(byte[] bytes, int length) {
    this.bytes = bytes;
    this.length = length;
  }

  @Override
  public String getValue() {
    return new String(bytes, 0, length, StandardCharsets.UTF_8);
  }

  @Override
  public int charLength() {
    return getValue().length();
  }

  @Override
  public byte[] asUnquotedUTF8() {
    return Arrays.copyOf(bytes, length);
  }

  @Override
  public int appendUnquotedUTF8(byte[] buffer, int offset) {
    if (length > buffer.length - offset) {
      return -1;
    }
    System.arraycopy(bytes, 0, buffer, offset, length);
    return length;
  }

  @Override
  public int appendUnquoted(char[] buffer, int offset) {
    String value = getValue();
    if (value.length() > buffer.length - offset) {
      return -1;
    }
    value.getChars(0, value.length(), buffer, offset);
    return value.length();
  }

  @Override
  public int writeUnquotedUTF8(OutputStream out) throws IOException {
    out.write(bytes, 0, length);
    return length;
  }

  @Override
  public int putUnquotedUTF8(ByteBuffer buffer) {
    if (length > buffer.remaining()) {
      return -1;
    }
    buffer.put(bytes, 0, length);
    return length;
  }

  @Override
  public char[] asQuotedChars() {
    throw quoted();
  }

  @Override
  public byte[] asQuotedUTF8() {
    throw quoted();
  }

  @Override
  public int appendQuotedUTF8(byte[] buffer, int offset) {
    throw quoted();
  }

  @Override
  public int appendQuoted(char[] buffer, int offset) {
    throw quoted();
  }

  @Override
  public int writeQuotedUTF8(OutputStream out) {
    throw quoted();
  }

  @Override
  public int putQuotedUTF8(ByteBuffer buffer) {
    throw quoted();
  }

  private static UnsupportedOperationException quoted() {
    return new UnsupportedOperationException("a raw value is written as it is, never quoted");
  }
}
