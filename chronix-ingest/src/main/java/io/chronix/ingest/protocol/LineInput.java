package io.chronix.ingest.protocol;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Lines from a socket, with a bound on their length: a sender that never writes a newline must not
 * make the server buffer without limit. A line must also be complete within a time bound, so that
 * a sender dribbling a byte at a time (slow loris) cannot keep a connection and its thread for
 * ever. Also tells whether more input is already at hand, so that a reader can store what it has
 * before blocking.
 */
final class LineInput {

  private final InputStream in;
  private final int maxLineBytes;
  private final long maxLineNanos;
  private final LongSupplier nanoClock;
  private final byte[] buffer = new byte[1 << 16];
  private int position;
  private int limit;
  private byte[] line = new byte[256];
  private int lineLength;
  private boolean tooLong;

  LineInput(InputStream in, int maxLineBytes, long maxLineMillis) {
    this(in, maxLineBytes, maxLineMillis, System::nanoTime);
  }

  LineInput(InputStream in, int maxLineBytes, long maxLineMillis, LongSupplier nanoClock) {
    this.in = in;
    this.maxLineBytes = maxLineBytes;
    this.maxLineNanos = TimeUnit.MILLISECONDS.toNanos(maxLineMillis);
    this.nanoClock = nanoClock;
  }

  /**
   * The next line without its terminator ({@code \n} or {@code \r\n}); the last line may lack
   * one. Of a line longer than the bound only the beginning is returned, and {@link
   * #lastLineTooLong()} says so.
   *
   * @return null at the end of the stream
   * @throws SocketTimeoutException when a line takes longer than its time bound to arrive
   */
  String readLine() throws IOException {
    lineLength = 0;
    tooLong = false;
    boolean any = false;
    long started = 0;
    while (true) {
      if (position == limit) {
        int read = in.read(buffer);
        if (read < 0) {
          return any ? finish() : null;
        }
        position = 0;
        limit = read;
        if (any && nanoClock.getAsLong() - started > maxLineNanos) {
          throw new SocketTimeoutException("a line took longer than " + TimeUnit.NANOSECONDS.toMillis(maxLineNanos)
              + " ms to arrive (" + lineLength + " bytes so far)");
        }
      }
      if (!any) {
        any = true;
        started = nanoClock.getAsLong();
      }
      int start = position;
      while (position < limit && buffer[position] != '\n') {
        position++;
      }
      append(start, position - start);
      if (position < limit) {
        position++;
        return finish();
      }
    }
  }

  boolean lastLineTooLong() {
    return tooLong;
  }

  /** True when a following {@link #readLine()} can start without waiting for the network. */
  boolean hasBufferedInput() throws IOException {
    return position < limit || in.available() > 0;
  }

  private void append(int start, int count) {
    int room = maxLineBytes - lineLength;
    if (count > room) {
      tooLong = true;
      count = room;
    }
    if (lineLength + count > line.length) {
      line = Arrays.copyOf(line, Math.min(maxLineBytes, Math.max(line.length * 2, lineLength + count)));
    }
    System.arraycopy(buffer, start, line, lineLength, count);
    lineLength += count;
  }

  private String finish() {
    int length = lineLength > 0 && line[lineLength - 1] == '\r' && !tooLong ? lineLength - 1 : lineLength;
    return new String(line, 0, length, StandardCharsets.UTF_8);
  }
}
