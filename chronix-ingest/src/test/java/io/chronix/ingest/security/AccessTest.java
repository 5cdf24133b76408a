package io.chronix.ingest.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.TestHttp;
import io.chronix.ingest.config.ServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Who may do what over HTTP, with auth off (the local default) and on (docs/security.md). */
class AccessTest {

  private static final HttpClient HTTP = TestHttp.CLIENT;
  private static final String POINT = "cpu,host=a value=1 1700000000000000000";
  private static final String DELETE_ALL = "{\"delete\":{\"query\":\"*:*\"}}";
  private static final String COUNT = "/solr/chronix/query?q=name:cpu&rows=0&wt=json";

  @TempDir Path dir;

  private static HttpResponse<String> send(String method, String url, String body, String authorization)
      throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
        .header("Content-Type", url.contains("/update") ? "application/json" : "text/plain");
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String basic(String user, String password) {
    return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void anAnonymousDeleteThroughSolrIsRefusedAndTheDataStays() throws Exception {
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dir.toString())).start()) {
      String base = server.baseUrl();
      assertEquals(204, send("POST", base + "/write", POINT, null).statusCode(), "a local user writes as before");
      assertEquals(204, send("POST", base + "/flush", "", null).statusCode(), "and flushes");
      HttpResponse<String> delete = send("POST", base + "/solr/chronix/update?commit=true", DELETE_ALL, null);
      assertEquals(403, delete.statusCode(), delete.body());
      assertTrue(delete.body().contains("need the admin role"), delete.body());
      assertEquals(403, send("GET", base + "/solr/admin/cores?action=STATUS", null, null).statusCode());
      assertEquals(403, send("POST", base + "/solr/chronix/config", "{}", null).statusCode());
      HttpResponse<String> count = send("GET", base + COUNT, null, null);
      assertEquals(200, count.statusCode(), "read-only search stays open");
      assertTrue(count.body().contains("\"numFound\":1"), count.body());
      assertEquals(200, send("GET", base + "/api/v1/query?query=cpu&time=1700000000", null, null).statusCode());
    }
  }

  @Test
  void aNetworkAddressWithoutAuthRefusesToStart() {
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> new ChronixServer(
        ServerConfig.defaults().withEphemeralPorts().with("data.dir", dir.toString()).with("http.host", "0.0.0.0")));
    assertTrue(refused.getMessage().contains("auth.allowAnonymous=true"), refused.getMessage());
    IllegalArgumentException noUsers = assertThrows(IllegalArgumentException.class, () -> new ChronixServer(
        ServerConfig.defaults().withEphemeralPorts().with("data.dir", dir.toString()).with("auth.enabled", "true")));
    assertTrue(noUsers.getMessage().contains("no auth.user"), noUsers.getMessage());
    IllegalArgumentException badRole = assertThrows(IllegalArgumentException.class, () -> ServerConfig.defaults()
        .with("auth.token.agent.roles", "writer").with("auth.token.agent.sha256", Credentials.hashToken("x"))
        .credentials());
    assertTrue(badRole.getMessage().contains("unknown role 'writer'"), badRole.getMessage());
    IllegalArgumentException plain = assertThrows(IllegalArgumentException.class, () -> ServerConfig.defaults()
        .with("auth.user.bob.roles", "read").with("auth.user.bob.password", "secret").credentials());
    assertTrue(plain.getMessage().contains("auth.user.bob.password: not a pbkdf2-sha256"), plain.getMessage());
  }

  @Test
  void withAuthEveryPathNeedsItsRole() throws Exception {
    String agentToken = "agent-token-0123456789";
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dir.toString()).with("auth.enabled", "true")
        .with("auth.user.grafana.roles", "read").with("auth.user.grafana.password", PasswordHash.hash("reader-pass".toCharArray()))
        .with("auth.user.ops.roles", "admin").with("auth.user.ops.password", PasswordHash.hash("admin-pass".toCharArray()))
        .with("auth.token.agent.roles", "write").with("auth.token.agent.sha256", Credentials.hashToken(agentToken)))
        .start()) {
      String base = server.baseUrl();
      String reader = basic("grafana", "reader-pass");
      String admin = basic("ops", "admin-pass");
      String agent = "Bearer " + agentToken;

      assertEquals(204, send("GET", base + "/ping", null, null).statusCode(), "health checks need nothing");
      HttpResponse<String> anonymous = send("POST", base + "/write", POINT, null);
      assertEquals(401, anonymous.statusCode());
      assertEquals("Basic realm=\"chronix\"", anonymous.headers().firstValue("WWW-Authenticate").orElse(""));
      assertTrue(anonymous.body().contains("/write needs the write role"), anonymous.body());
      assertEquals(401, send("POST", base + "/write", POINT, basic("grafana", "wrong")).statusCode());
      assertEquals(401, send("POST", base + "/write", POINT, "Bearer not-a-token").statusCode());
      HttpResponse<String> readerWrites = send("POST", base + "/write", POINT, reader);
      assertEquals(403, readerWrites.statusCode());
      assertTrue(readerWrites.body().contains("grafana may not use /write"), readerWrites.body());
      assertEquals(204, send("POST", base + "/write", POINT, agent).statusCode());
      assertEquals(204, send("POST", base + "/write", POINT, "Token " + agentToken).statusCode(), "InfluxDB 2 style");
      assertEquals(204, send("POST", base + "/write?u=ops&p=admin-pass", POINT, null).statusCode(), "InfluxDB 1 style");
      assertEquals(200, send("POST", base + "/query?q=SHOW%20DATABASES", "", agent).statusCode(), "agents' handshake");

      assertEquals(403, send("GET", base + "/api/v1/query?query=cpu", null, agent).statusCode());
      assertEquals(200, send("GET", base + "/api/v1/query?query=cpu", null, reader).statusCode());
      assertEquals(200, send("GET", base + COUNT, null, reader).statusCode());
      assertEquals(401, send("GET", base + COUNT, null, null).statusCode());

      // moving and removing data is the admin's: readers and writers are refused before anything runs
      for (String path : new String[] {"/admin/backup", "/admin/restore", "/api/v1/admin/tsdb/delete_series"}) {
        for (String who : new String[] {reader, agent}) {
          HttpResponse<String> refused = send("POST", base + path, "", who);
          assertEquals(403, refused.statusCode(), path + ": " + refused.body());
          assertTrue(refused.body().contains("may not use " + path), refused.body());
        }
      }
      assertEquals(403, send("POST", base + "/api/v1/import", "", reader).statusCode(), "importing writes");
      assertEquals(403, send("GET", base + "/api/v1/export?match[]=cpu", null, agent).statusCode(), "exporting reads");
      assertEquals(403, send("POST", base + "/flush", "", agent).statusCode());
      assertEquals(204, send("POST", base + "/flush", "", admin).statusCode());
      assertEquals(403, send("POST", base + "/solr/chronix/update?commit=true", DELETE_ALL, reader).statusCode());
      assertEquals(403, send("GET", base + "/solr/admin/cores?action=STATUS", null, agent).statusCode());
      assertEquals(200, send("GET", base + "/solr/admin/cores?action=STATUS&wt=json", null, admin).statusCode());
      assertTrue(send("GET", base + COUNT, null, reader).body().contains("\"numFound\":1"), "the data is there");
      assertEquals(200, send("POST", base + "/solr/chronix/update?commit=true", DELETE_ALL, admin).statusCode(),
          "an admin may delete");
      assertTrue(send("GET", base + COUNT, null, reader).body().contains("\"numFound\":0"));
    }
  }
}
