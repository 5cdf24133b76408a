package io.chronix.ingest.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
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

  /**
   * Bodies read into kept arrays: the next, shorter body comes in the same array with the first
   * one's bytes behind it, and only its length counts; declared, undeclared and gzip bodies alike.
   */
  @Test
  void bodiesReadIntoKeptArraysAreTheirLengthOfIt() throws Exception {
    BodyBuffers buffers = new BodyBuffers();
    byte[] first = "cpu value=1\n".repeat(500).getBytes(StandardCharsets.UTF_8);
    byte[] second = "mem value=2\n".repeat(20).getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream zipped = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(zipped)) {
      gzip.write(second);
    }
    byte[] gz = zipped.toByteArray();
    RequestBodies.Body one = RequestBodies.readDecoded(request(first, first.length, null), first.length, buffers);
    assertEquals(first.length, one.length());
    assertArrayEquals(first, java.util.Arrays.copyOf(one.bytes(), one.length()));
    buffers.give(one.bytes());
    for (RequestBodies.Body next : new RequestBodies.Body[] {
        RequestBodies.readDecoded(request(second, second.length, null), first.length, buffers),
        RequestBodies.readDecoded(request(second, -1, null), first.length, buffers),
        RequestBodies.readDecoded(request(gz, gz.length, "gzip"), first.length, buffers)}) {
      assertEquals(second.length, next.length());
      assertArrayEquals(second, java.util.Arrays.copyOf(next.bytes(), next.length()));
      buffers.give(next.bytes());
    }
    assertSame(one.bytes(), buffers.take(second.length), "the first body's array is the one kept and taken again");
    // an undeclared body longer than the kept array grows past it
    byte[] large = "disk value=3\n".repeat(2000).getBytes(StandardCharsets.UTF_8);
    RequestBodies.Body grown = RequestBodies.readDecoded(request(large, -1, null), large.length, buffers);
    assertArrayEquals(large, java.util.Arrays.copyOf(grown.bytes(), grown.length()));
    assertEquals(large.length, grown.length());
    assertEquals(413, assertThrows(MalformedBodyException.class,
        () -> RequestBodies.readDecoded(request(large, -1, null), large.length - 1, buffers)).status());
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
