package io.chronix.ingest.http;

import io.chronix.ingest.protocol.MalformedBodyException;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.Locale;
import javax.servlet.http.HttpServletRequest;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.util.MultiMap;
import org.eclipse.jetty.util.UrlEncoded;

/**
 * A form-encoded POST's parameters, read from its body in one piece. Jetty's own parse reads the
 * body a byte at a time through the servlet stream, each read taking the input's lock: 7 % of
 * the server's time for a one-series range query that Grafana posts (docs/benchmarks.md). The
 * parameters are the ones Jetty's parse gives: its URL decoding over the whole body, within its
 * context's form limits, handed to the request before anything asks for a parameter.
 */
public final class FormParameters {

  private static final String FORM = "application/x-www-form-urlencoded";

  private FormParameters() {}

  /**
   * Reads the body's parameters if the request is a form-encoded POST to Jetty; any other request is
   * left as it is, to the container's parse. Call before anything asks for a parameter.
   *
   * @throws MalformedBodyException the body exceeds the form limits or is not URL-encoded text (what
   *     is wrong, in the message; 413 for the size, 400 otherwise)
   */
  public static void readAhead(HttpServletRequest request) throws IOException, MalformedBodyException {
    Request base = Request.getBaseRequest(request);
    if (base == null || !"POST".equals(request.getMethod()) || !isForm(request.getContentType())) {
      return;
    }
    ContextHandler.Context context = base.getContext();
    ContextHandler handler = context == null ? null : context.getContextHandler();
    int maxBytes = handler == null ? ContextHandler.DEFAULT_MAX_FORM_CONTENT_SIZE : handler.getMaxFormContentSize();
    int maxKeys = handler == null ? ContextHandler.DEFAULT_MAX_FORM_KEYS : handler.getMaxFormKeys();
    Charset charset = charset(request.getCharacterEncoding());
    byte[] body = RequestBodies.readBytesUpTo(request, maxBytes < 0 ? Integer.MAX_VALUE - 8 : maxBytes,
        "the largest form-encoded body read");
    MultiMap<String> parameters = new MultiMap<>();
    try {
      UrlEncoded.decodeTo(new String(body, charset), parameters, charset);
    } catch (IllegalStateException | IllegalArgumentException e) {
      throw new MalformedBodyException("form-encoded body: " + e.getMessage());
    }
    // Jetty's parse of a stream stops at the limit; this one sees the whole (bounded) body first
    if (maxKeys >= 0 && parameters.size() > maxKeys) {
      throw new MalformedBodyException("form-encoded body: " + parameters.size() + " names, more than the "
          + maxKeys + " a form may have");
    }
    base.setContentParameters(parameters);
  }

  private static boolean isForm(String contentType) {
    if (contentType == null) {
      return false;
    }
    int end = contentType.indexOf(';');
    return (end < 0 ? contentType : contentType.substring(0, end)).trim().toLowerCase(Locale.ROOT).equals(FORM);
  }

  private static Charset charset(String name) throws MalformedBodyException {
    if (name == null) {
      return StandardCharsets.UTF_8;
    }
    try {
      return Charset.forName(name);
    } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
      throw MalformedBodyException.unsupported("unsupported charset '" + name + "' of a form-encoded body");
    }
  }
}
