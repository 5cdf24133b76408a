package io.chronix.ingest.http;

import io.chronix.ingest.protocol.MalformedBodyException;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;
import javax.servlet.http.HttpServletRequest;

/** Reads request bodies, never more than the configured size. */
public final class RequestBodies {

  private static final int CHUNK = 1 << 16;
  private static final int MAX_PRESIZE = 1 << 24;
  /** The setting that limits most bodies, named when one is too large. */
  private static final String LIMIT_SETTING = "http.maxRequestBytes";

  private RequestBodies() {}

  /** The body as text, gunzipped when the client says {@code Content-Encoding: gzip}. */
  public static String readUtf8(HttpServletRequest request, long maxBytes) throws IOException, MalformedBodyException {
    return new String(readDecoded(request, maxBytes), StandardCharsets.UTF_8);
  }

  /**
   * The body's bytes, gunzipped when the client says {@code Content-Encoding: gzip}: for parsers
   * that read bytes and decode only the text they keep.
   */
  public static byte[] readDecoded(HttpServletRequest request, long maxBytes) throws IOException, MalformedBodyException {
    return readDecoded(request, maxBytes, null).bytes();
  }

  /**
   * As {@link #readDecoded(HttpServletRequest, long)}, into an array from {@code buffers} (null: a
   * new array of the body's length), which the caller gives back once it has read the body.
   */
  public static Body readDecoded(HttpServletRequest request, long maxBytes, BodyBuffers buffers)
      throws IOException, MalformedBodyException {
    String encoding = request.getHeader("Content-Encoding");
    InputStream in = request.getInputStream();
    long declared = request.getContentLengthLong();
    if (encoding != null && !encoding.isBlank() && !encoding.equalsIgnoreCase("identity")) {
      if (!encoding.toLowerCase(Locale.ROOT).contains("gzip")) {
        throw MalformedBodyException.unsupported("unsupported Content-Encoding '" + encoding + "' (use gzip or none)");
      }
      try {
        in = new GZIPInputStream(in, CHUNK);
      } catch (ZipException | EOFException e) {
        throw new MalformedBodyException("body is not valid gzip: " + e.getMessage());
      }
      declared = -1; // the length on the wire says little about the length unpacked
    }
    try {
      return readLimited(in, declared, maxBytes, LIMIT_SETTING, BodyBudget.leaseOf(request), buffers);
    } catch (ZipException | EOFException e) {
      throw new MalformedBodyException("body is not valid gzip: " + e.getMessage());
    }
  }

  /** The body's bytes as sent (for formats that carry their own compression, like snappy). */
  public static byte[] readBytes(HttpServletRequest request, long maxBytes) throws IOException, MalformedBodyException {
    return readBytes(request, maxBytes, null).bytes();
  }

  /** As {@link #readBytes(HttpServletRequest, long)}, into an array from {@code buffers} (null: a new one). */
  public static Body readBytes(HttpServletRequest request, long maxBytes, BodyBuffers buffers)
      throws IOException, MalformedBodyException {
    return readLimited(request.getInputStream(), request.getContentLengthLong(), maxBytes, LIMIT_SETTING,
        BodyBudget.leaseOf(request), buffers);
  }

  /**
   * As {@link #readBytes(HttpServletRequest, long)}, with {@code limitName} the setting that sets
   * {@code maxBytes}, for the message of a body too large.
   */
  static byte[] readBytesUpTo(HttpServletRequest request, long maxBytes, String limitName)
      throws IOException, MalformedBodyException {
    return readLimited(request.getInputStream(), request.getContentLengthLong(), maxBytes, limitName,
        BodyBudget.leaseOf(request), null).bytes();
  }

  /**
   * A body: {@code [0, length)} of {@code bytes}, which is longer when it came from
   * {@link BodyBuffers}.
   */
  public record Body(byte[] bytes, int length) {}

  /**
   * @param lease the request's share of the bodies' memory budget, charged as the body comes; may be null
   * @param buffers where the array comes from; null: the body's bytes exactly, in an array of their own
   */
  private static Body readLimited(InputStream in, long declaredLength, long maxBytes, String limitName,
      BodyBudget.Lease lease, BodyBuffers buffers) throws IOException, MalformedBodyException {
    if (declaredLength > maxBytes) {
      throw tooLarge(maxBytes, limitName);
    }
    if (declaredLength >= 0 && declaredLength <= MAX_PRESIZE) {
      int length = (int) declaredLength;
      return new Body(readExactly(in, length, lease, buffers == null ? new byte[length] : buffers.take(length)),
          length);
    }
    int guess = (int) Math.max(1024, Math.min(declaredLength, MAX_PRESIZE));
    byte[] body = buffers == null ? new byte[guess] : buffers.take(guess);
    long total = 0;
    int read;
    while ((read = in.read(body, (int) total, Math.min(CHUNK, body.length - (int) total))) >= 0) {
      total += read;
      if (total > maxBytes) {
        throw tooLarge(maxBytes, limitName);
      }
      if (lease != null) {
        lease.charge(read);
      }
      if (total == body.length) {
        body = Arrays.copyOf(body, (int) Math.min(Integer.MAX_VALUE - 8, 2L * body.length));
      }
    }
    return new Body(buffers == null && total != body.length ? Arrays.copyOf(body, (int) total) : body, (int) total);
  }

  /**
   * A body of declared length read straight into an array of at least that size: no growing
   * copies of a 10,000-line write. The container stops a body at its declared length.
   */
  private static byte[] readExactly(InputStream in, int length, BodyBudget.Lease lease, byte[] body)
      throws IOException, MalformedBodyException {
    if (lease != null) {
      lease.charge(length);
    }
    int filled = 0;
    while (filled < length) {
      int read = in.read(body, filled, Math.min(CHUNK, length - filled));
      if (read < 0) {
        throw new MalformedBodyException("body ended after " + filled + " of the " + length
            + " bytes its Content-Length declares");
      }
      filled += read;
    }
    return body;
  }

  private static MalformedBodyException tooLarge(long maxBytes, String limitName) {
    return MalformedBodyException.tooLarge("request body exceeds " + maxBytes + " bytes (" + limitName + ")");
  }
}
