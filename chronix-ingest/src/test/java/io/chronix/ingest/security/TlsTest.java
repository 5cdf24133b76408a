package io.chronix.ingest.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.config.ServerConfig;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** HTTPS from the config: a self-signed certificate made with the JDK's keytool. */
class TlsTest {

  private static final String PASSWORD = "changeit-tls";

  @TempDir Path dir;

  private Path keystore() throws Exception {
    Path keystore = dir.resolve("server.p12");
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    Process process = new ProcessBuilder(List.of(keytool.toString(), "-genkeypair", "-alias", "chronix", "-keyalg", "RSA",
        "-keysize", "2048", "-validity", "2", "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1",
        "-storetype", "PKCS12", "-keystore", keystore.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD))
        .redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    assertTrue(process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0, output);
    return keystore;
  }

  private static HttpClient trusting(Path keystore) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keystore)) {
      store.load(in, PASSWORD.toCharArray());
    }
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(store);
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(null, trust.getTrustManagers(), null);
    return HttpClient.newBuilder().sslContext(tls).build();
  }

  @Test
  void theServerSpeaksHttpsWithTheConfiguredCertificate() throws Exception {
    Path keystore = keystore();
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dir.resolve("data").toString()).with("http.tls.keystore", keystore.toString())
        .with("http.tls.keystorePassword", PASSWORD)).start()) {
      assertTrue(server.baseUrl().startsWith("https://127.0.0.1:"), server.baseUrl());
      HttpClient client = trusting(keystore);
      assertEquals(204, client.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/ping")).build(),
          HttpResponse.BodyHandlers.discarding()).statusCode());
      assertEquals(204, client.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/write"))
          .POST(HttpRequest.BodyPublishers.ofString("tls value=1 1700000000000000000")).build(),
          HttpResponse.BodyHandlers.discarding()).statusCode());
      HttpResponse<String> query = client.send(HttpRequest.newBuilder(URI.create(server.baseUrl()
          + "/api/v1/query?query=tls&time=1700000000")).build(), HttpResponse.BodyHandlers.ofString());
      assertTrue(query.body().contains("\"tls\""), query.body());

      String plain = "http://127.0.0.1:" + server.port() + "/ping";
      HttpResponse<String> cleartext = null;
      try {
        cleartext = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(plain)).build(),
            HttpResponse.BodyHandlers.ofString());
      } catch (IOException expected) {
        // the TLS port may also just drop the cleartext connection
      }
      assertTrue(cleartext == null || cleartext.statusCode() == 400, "no cleartext answer: " + cleartext);
      assertThrows(IOException.class, () -> HttpClient.newHttpClient().send(HttpRequest.newBuilder(
          URI.create(server.baseUrl() + "/ping")).build(), HttpResponse.BodyHandlers.discarding()),
          "an untrusted certificate is refused by a default client");
    }
  }

  @Test
  void aMissingKeystoreIsNamed() {
    IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> new ChronixServer(
        ServerConfig.defaults().withEphemeralPorts().with("data.dir", dir.toString())
            .with("http.tls.keystore", dir.resolve("nope.p12").toString())));
    assertTrue(missing.getMessage().contains("nope.p12 is not a readable file"), missing.getMessage());
  }
}
