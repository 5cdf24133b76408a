package io.chronix.ingest.http;

import java.io.IOException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/** An endpoint this server's setup cannot serve: 501 saying what to use instead. */
public final class NotHereServlet extends HttpServlet {

  private final String why;

  public NotHereServlet(String why) {
    this.why = why;
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
    JsonResponses.error(response, 501, why);
  }
}
