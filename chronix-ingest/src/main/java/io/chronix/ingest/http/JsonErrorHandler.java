package io.chronix.ingest.http;

import java.io.IOException;
import java.util.Map;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.ErrorHandler;

/**
 * Errors the container answers itself (no such path, a request queue's 503) in the JSON shape of
 * every other error of the API, {@code {"error": "..."}}, instead of Jetty's HTML page; a 503 says
 * when to retry, as the server's own 503s do.
 */
public final class JsonErrorHandler extends ErrorHandler {

  @Override
  protected void generateAcceptableResponse(Request baseRequest, HttpServletRequest request,
      HttpServletResponse response, int code, String message) throws IOException {
    baseRequest.setHandled(true);
    String text = message == null || message.isBlank() ? HttpStatus.getMessage(code) : message;
    if (code == HttpStatus.SERVICE_UNAVAILABLE_503) {
      response.setHeader("Retry-After", "1");
      text = text + ": too many requests of this kind in flight (http.maxConcurrentQueries, one /flush or "
          + "/compact at a time); retry shortly";
    }
    JsonResponses.send(response, code, Map.of("error", text));
  }
}
