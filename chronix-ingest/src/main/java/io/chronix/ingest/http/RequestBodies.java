package io.chronix.ingest.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;
import javax.servlet.http.HttpServletRequest;

/** Reads request bodies: gzip when the client says so, never more than the configured size. */
public final class RequestBodies {

  private RequestBodies() {}

  public static String readUtf8(HttpServletRequest request, long maxBytes) throws IOException, BodyException {
    String encoding = request.getHeader("Content-Encoding");
    InputStream in = request.getInputStream();
    if (encoding != null && !encoding.isBlank() && !encoding.equalsIgnoreCase("identity")) {
      if (!encoding.toLowerCase(Locale.ROOT).contains("gzip")) {
        throw new BodyException(415, "unsupported Content-Encoding '" + encoding + "' (use gzip or none)");
      }
      try {
        in = new GZIPInputStream(in, 1 << 16);
      } catch (ZipException e) {
        throw new BodyException(400, "body is not valid gzip: " + e.getMessage());
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(1024, Math.min(request.getContentLength(), 1 << 24)));
    byte[] buffer = new byte[1 << 16];
    long total = 0;
    try {
      int read;
      while ((read = in.read(buffer)) > 0) {
        total += read;
        if (total > maxBytes) {
          throw new BodyException(413, "request body exceeds " + maxBytes + " bytes (http.maxRequestBytes)");
        }
        out.write(buffer, 0, read);
      }
    } catch (ZipException | java.io.EOFException e) {
      throw new BodyException(400, "body is not valid gzip: " + e.getMessage());
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /** A body that cannot be read, with the HTTP status that says why. */
  public static final class BodyException extends Exception {
    private final int status;

    public BodyException(int status, String message) {
      super(message);
      this.status = status;
    }

    public int status() {
      return status;
    }
  }
}
