package io.chronix.ingest.http;

import io.chronix.ingest.protocol.influx.InfluxHeaders;
import java.io.IOException;
import java.util.Map;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code GET|HEAD /ping}: 204 while the server runs, with the headers InfluxDB clients check
 * ({@code X-Influxdb-Version}); {@code ?verbose=true} answers 200 with the version as InfluxDB does.
 */
public final class PingServlet extends HttpServlet {

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
    response.setHeader("X-Chronix-Server", "1");
    InfluxHeaders.add(response);
    if ("true".equalsIgnoreCase(request.getParameter("verbose"))) {
      JsonResponses.send(response, 200, Map.of("version", InfluxHeaders.VERSION));
      return;
    }
    response.setStatus(204);
  }

  @Override
  protected void doHead(HttpServletRequest request, HttpServletResponse response) throws IOException {
    doGet(request, response);
  }
}
