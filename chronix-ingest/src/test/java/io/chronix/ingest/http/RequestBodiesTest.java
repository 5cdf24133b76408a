package io.chronix.ingest.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.ingest.protocol.MalformedBodyException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;
import javax.servlet.ReadListener;
import javax.servlet.ServletInputStream;
import javax.servlet.http.HttpServletRequest;
import org.junit.jupiter.api.Test;

/** Bodies read within their limits: declared lengths, early ends, gzip, sizes. */
class RequestBodiesTest {

  @Test
  void aBodyShorterThanItsContentLengthIsMalformed() {
    MalformedBodyException e = assertThrows(MalformedBodyException.class,
        () -> RequestBodies.readBytes(request("0123456789".getBytes(StandardCharsets.UTF_8), 100, null), 1000));
    assertEquals("body ended after 10 of the 100 bytes its Content-Length declares", e.getMessage());
    assertEquals(400, e.status());
  }

  @Test
  void declaredUndeclaredAndGzipBodiesAreReadWhole() throws Exception {
    byte[] text = "cpu value=1\n".repeat(1000).getBytes(StandardCharsets.UTF_8);
    assertArrayEquals(text, RequestBodies.readBytes(request(text, text.length, null), text.length));
    assertArrayEquals(text, RequestBodies.readBytes(request(text, -1, null), text.length));
    ByteArrayOutputStream zipped = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(zipped)) {
      gzip.write(text);
    }
    byte[] gz = zipped.toByteArray();
    assertArrayEquals(text, RequestBodies.readDecoded(request(gz, gz.length, "gzip"), text.length));
    MalformedBodyException large = assertThrows(MalformedBodyException.class,
        () -> RequestBodies.readDecoded(request(gz, gz.length, "gzip"), text.length - 1));
    assertEquals(413, large.status(), "the limit applies to the unpacked body");
    MalformedBodyException notGzip = assertThrows(MalformedBodyException.class,
        () -> RequestBodies.readDecoded(request(text, text.length, "gzip"), text.length));
    assertTrue(notGzip.getMessage().startsWith("body is not valid gzip"), notGzip.getMessage());
    assertEquals(415, assertThrows(MalformedBodyException.class,
        () -> RequestBodies.readDecoded(request(text, text.length, "br"), text.length)).status());
  }

  /** A request with this body, declared length (-1: none) and Content-Encoding. */
  private static HttpServletRequest request(byte[] body, long declared, String encoding) {
    ByteArrayInputStream bytes = new ByteArrayInputStream(body);
    ServletInputStream in = new ServletInputStream() {
      @Override
      public int read() {
        return bytes.read();
      }

      @Override
      public int read(byte[] b, int off, int len) {
        return bytes.read(b, off, len);
      }

      @Override
      public boolean isFinished() {
        return bytes.available() == 0;
      }

      @Override
      public boolean isReady() {
        return true;
      }

      @Override
      public void setReadListener(ReadListener listener) {
        throw new UnsupportedOperationException();
      }
    };
    return (HttpServletRequest) Proxy.newProxyInstance(RequestBodiesTest.class.getClassLoader(),
        new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> switch (method.getName()) {
          case "getInputStream" -> in;
          case "getContentLengthLong" -> declared;
          case "getContentLength" -> (int) declared;
          case "getHeader" -> "Content-Encoding".equalsIgnoreCase((String) args[0]) ? encoding : null;
          default -> null;
        });
  }
}
