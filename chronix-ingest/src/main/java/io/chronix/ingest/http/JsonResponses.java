package io.chronix.ingest.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Map;
import javax.servlet.http.HttpServletResponse;

/** Error and status bodies as JSON ({"error": "..."} like InfluxDB). */
public final class JsonResponses {

  private static final ObjectMapper JSON = new ObjectMapper();

  private JsonResponses() {}

  public static void send(HttpServletResponse response, int status, Map<String, ?> body) throws IOException {
    response.setStatus(status);
    response.setContentType("application/json");
    response.setCharacterEncoding("UTF-8");
    JSON.writeValue(response.getOutputStream(), body);
  }

  public static void error(HttpServletResponse response, int status, String message) throws IOException {
    send(response, status, Map.of("error", message));
  }
}
