package io.chronix.ingest.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.pipeline.OverloadedException;
import io.chronix.ingest.pipeline.PointBatch;
import io.chronix.ingest.wal.WalEntries;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What the forwarding node makes of each answer of an owner. */
class BatchForwarderTest {

  private HttpServer owner;
  private final AtomicReference<Answer> answer = new AtomicReference<>();
  private final AtomicReference<byte[]> received = new AtomicReference<>();
  private final AtomicReference<String> authorization = new AtomicReference<>();

  private record Answer(int status, String retryAfter, String body) { }

  @BeforeEach
  void startOwner() throws IOException {
    owner = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    owner.createContext(BatchForwarder.PATH, exchange -> {
      received.set(exchange.getRequestBody().readAllBytes());
      authorization.set(exchange.getRequestHeaders().getFirst("Authorization"));
      Answer a = answer.get();
      if (a.retryAfter() != null) {
        exchange.getResponseHeaders().set("Retry-After", a.retryAfter());
      }
      byte[] body = a.body().getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(a.status(), a.status() == 204 ? -1 : body.length);
      if (a.status() != 204) {
        exchange.getResponseBody().write(body);
      }
      exchange.close();
    });
    owner.start();
  }

  @AfterEach
  void stopOwner() {
    owner.stop(0);
  }

  private String ownerUrl() {
    return "http://127.0.0.1:" + owner.getAddress().getPort();
  }

  private static PointBatch batch() {
    PointBatch batch = new PointBatch();
    batch.accept(SeriesKey.metric("cpu", Map.of("host", "a")), 1_000_000L, 1.5);
    batch.accept(SeriesKey.metric("cpu", Map.of("host", "a")), 2_000_000L, 2.5);
    return batch;
  }

  @Test
  void anAcceptedBatchArrivesAsVersionByteAndLogEntryWithTheToken() throws IOException {
    answer.set(new Answer(204, null, ""));
    new BatchForwarder("secret").send(ownerUrl(), batch());
    byte[] body = received.get();
    assertEquals(BatchForwarder.FORMAT_VERSION_1, body[0], "no arrays: the version nodes before arrays read");
    assertArrayEquals(WalEntries.encode(batch()), Arrays.copyOfRange(body, 1, body.length));
    assertEquals("Bearer secret", authorization.get());

    PointBatch arrays = batch();
    arrays.acceptArray(new SeriesKey("cpus", "array", Map.of("host", "a")), 3_000_000L, new double[] {1, 2});
    new BatchForwarder("secret").send(ownerUrl(), arrays);
    assertEquals(BatchForwarder.FORMAT_VERSION, received.get()[0], "arrays: version 2");

    new BatchForwarder("").send(ownerUrl(), batch());
    assertEquals(null, authorization.get(), "no token, no header");
  }

  @Test
  void anOverloadedOwnerPassesItsRetryAfterOn() {
    for (int status : new int[] {503, 429}) {
      answer.set(new Answer(status, "7", "buffers full"));
      OverloadedException e = assertThrows(OverloadedException.class,
          () -> new BatchForwarder("").send(ownerUrl(), batch()));
      assertEquals(7, e.retryAfterSeconds(), status + "");
      assertTrue(e.getMessage().contains(ownerUrl()) && e.getMessage().contains("buffers full"), e.getMessage());
    }
    // a Retry-After that is not a small number of seconds (an HTTP date, garbage) means 1 s
    answer.set(new Answer(503, "Wed, 21 Oct 2026 07:28:00 GMT", "later"));
    assertEquals(1, assertThrows(OverloadedException.class,
        () -> new BatchForwarder("").send(ownerUrl(), batch())).retryAfterSeconds());
  }

  @Test
  void aRefusalIsAnErrorNotARetry() {
    answer.set(new Answer(400, null, "not a forwarded batch"));
    IOException e = assertThrows(IOException.class, () -> new BatchForwarder("").send(ownerUrl(), batch()));
    assertFalse(e instanceof OverloadedException, "a client retry would fail the same way");
    assertTrue(e.getMessage().contains("400") && e.getMessage().contains("not a forwarded batch"), e.getMessage());
  }

  @Test
  void anUnreachableOwnerIsARetry() {
    String gone = ownerUrl();
    owner.stop(0);
    IOException e = assertThrows(IOException.class, () -> new BatchForwarder("").send(gone, batch()));
    assertInstanceOf(OverloadedException.class, e);
    assertTrue(e.getMessage().contains("cannot be reached"), e.getMessage());
  }
}
