package io.chronix.ingest.http;

import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/** {@code GET|HEAD /ping}: 204 while the server runs (InfluxDB clients probe this). */
public final class PingServlet extends HttpServlet {

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response) {
    response.setHeader("X-Chronix-Server", "1");
    response.setStatus(204);
  }

  @Override
  protected void doHead(HttpServletRequest request, HttpServletResponse response) {
    doGet(request, response);
  }
}
