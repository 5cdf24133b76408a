package io.chronix.ingest.cli;

import io.chronix.ingest.config.ServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;

/** What the commands that talk to a running server share: its address, a client, the token, "nobody there". */
final class RunningServer {

  /** Exit code when no server answers. */
  static final int NO_SERVER = 3;

  private RunningServer() {}

  /** The server's base URL ({@code http://host:port}) with the path and query appended. */
  static URI uri(ServerConfig config, String pathAndQuery) {
    return URI.create("http://" + config.host() + ":" + config.port() + pathAndQuery);
  }

  static HttpClient client() {
    return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
  }

  /** The request with {@code Authorization: Bearer} when a token is given. */
  static HttpRequest.Builder withToken(HttpRequest.Builder request, String token) {
    return token == null || token.isBlank() ? request : request.header("Authorization", "Bearer " + token.trim());
  }

  /** Says so on stderr and returns {@link #NO_SERVER}. */
  static int unreachable(URI target) {
    System.err.println("chronix: no Chronix server answers at " + target.getScheme() + "://" + target.getHost() + ":"
        + target.getPort() + " (start one with ./chronix start, or pass the port it uses with --http-port)");
    return NO_SERVER;
  }
}
