package io.chronix.ingest.http;

import io.chronix.ingest.config.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/** The server's one HTTP port: plain HTTP/1.1 and h2c, or HTTPS when a keystore is configured. */
public final class HttpConnectors {

  /**
   * Bytes a connection reads from its socket at a time (Jetty's default is 8 kB). A line-protocol
   * request of 10,000 lines is 1.4 MB, some 180 reads at 8 kB, and the kernel's side of those
   * reads was 15 % of a request thread's time; at 64 kB the request threads spent 15-20 % less CPU
   * on P4's loads, at 256 kB no less than at 64 (docs/benchmarks.md, "The write path's copies").
   * Buffers come from Jetty's pool for the time of a read, not for the life of a connection.
   */
  static final int INPUT_BUFFER_BYTES = 64 * 1024;

  /**
   * Bytes of an answer gathered before any is sent (Jetty's default is 32 kB, of which it gathers
   * writes up to 8 kB). An answer that fits goes out in one write, with its length; a larger one is
   * streamed in chunks of this size. A raw hour of a P4 series is 50 kB and two hours 100 kB: Jetty
   * sent them chunked, as the headers with the answer's start, the points' bytes, and the end, each
   * a system call and a wake-up of the client; in one write a raw hour took a fifth less time and
   * CPU (docs/benchmarks.md, "Answers in one write").
   */
  static final int OUTPUT_BUFFER_BYTES = 128 * 1024;

  /**
   * Jetty's pool of I/O buffers, pooling up to the output buffer's size: its default pools up to
   * 64 kB and allocates a larger direct buffer anew each time it is asked, which cost a small
   * answer more than the single write saved. Buffers are taken for the time of a read or a
   * response; the pool keeps as many idle as were in use at once.
   */
  private static ByteBufferPool bufferPool() {
    return new ArrayByteBufferPool(0, 1024, OUTPUT_BUFFER_BYTES);
  }

  private HttpConnectors() {}

  public static ServerConnector create(Server jetty, ServerConfig config) {
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setOutputBufferSize(OUTPUT_BUFFER_BYTES);
    http.setOutputAggregationSize(OUTPUT_BUFFER_BYTES);
    ServerConnector connector;
    if (config.tlsKeystore().isEmpty()) {
      connector = new ServerConnector(jetty, null, null, bufferPool(), -1, -1, http1(http),
          new HTTP2CServerConnectionFactory(http));
    } else {
      Path keystore = Path.of(config.tlsKeystore());
      if (!Files.isReadable(keystore)) {
        throw new IllegalArgumentException("http.tls.keystore " + keystore.toAbsolutePath() + " is not a readable file");
      }
      SslContextFactory.Server tls = new SslContextFactory.Server();
      tls.setKeyStorePath(keystore.toAbsolutePath().toString());
      tls.setKeyStorePassword(config.tlsKeystorePassword());
      tls.setKeyStoreType(config.tlsKeystoreType());
      HttpConfiguration https = new HttpConfiguration(http);
      SecureRequestCustomizer secure = new SecureRequestCustomizer();
      // clients reach a server by address as often as by the certificate's name
      secure.setSniHostCheck(false);
      https.addCustomizer(secure);
      connector = new ServerConnector(jetty, null, null, bufferPool(), -1, -1,
          new SslConnectionFactory(tls, HttpVersion.HTTP_1_1.asString()), http1(https));
    }
    connector.setHost(config.host());
    connector.setPort(config.port());
    return connector;
  }

  private static HttpConnectionFactory http1(HttpConfiguration configuration) {
    HttpConnectionFactory factory = new HttpConnectionFactory(configuration);
    factory.setInputBufferSize(INPUT_BUFFER_BYTES);
    return factory;
  }

  public static boolean isTls(ServerConfig config) {
    return !config.tlsKeystore().isEmpty();
  }
}
