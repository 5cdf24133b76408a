package io.chronix.ingest.protocol.prometheus;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads a request body as it came: remote write decompresses it itself, since snappy's block
 * format is not a stream a servlet filter could undo.
 */
final class BodyBytes {

  private static final int CHUNK = 1 << 16;
  private static final int MAX_PRESIZE = 1 << 24;

  private BodyBytes() {}

  /**
   * @param declaredLength the Content-Length, or -1; only a hint for the buffer
   * @throws UnreadableBodyException (too large) past {@code maxBytes}, before reading the rest
   */
  static byte[] read(InputStream in, long declaredLength, long maxBytes) throws IOException, UnreadableBodyException {
    if (declaredLength > maxBytes) {
      throw tooLarge(maxBytes);
    }
    int presize = (int) Math.max(1024, Math.min(declaredLength, MAX_PRESIZE));
    ByteArrayOutputStream out = new ByteArrayOutputStream(presize);
    byte[] chunk = new byte[CHUNK];
    long total = 0;
    int read;
    while ((read = in.read(chunk)) >= 0) {
      total += read;
      if (total > maxBytes) {
        throw tooLarge(maxBytes);
      }
      out.write(chunk, 0, read);
    }
    return out.toByteArray();
  }

  private static UnreadableBodyException tooLarge(long maxBytes) {
    return UnreadableBodyException.tooLarge("request body exceeds " + maxBytes + " bytes (http.maxRequestBytes)");
  }
}
