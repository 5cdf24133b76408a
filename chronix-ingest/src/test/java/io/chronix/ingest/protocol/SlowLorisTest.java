package io.chronix.ingest.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.protocol.graphite.GraphiteTcpListener;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Slow loris against a TCP listener: twenty senders, each dribbling a byte every 100 ms and never
 * finishing a line, against a limit of four connections. The listener never runs more than four
 * connection threads, closes the dribblers once a line takes longer than the idle timeout, and a
 * proper sender gets its point stored afterwards.
 */
class SlowLorisTest {

  private static final int LIMIT = 4;
  private static final int DRIBBLERS = 20;
  private static final long TIMEOUT_MILLIS = 1500;

  private static long connectionThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(thread -> thread.getName().startsWith("graphite-tcp-") && !thread.getName().endsWith("accept"))
        .count();
  }

  @Test
  void dribblersNeitherExhaustThreadsNorKeepTheirConnections() throws Exception {
    RecordingWriter writer = new RecordingWriter();
    TcpLineListener.Limits limits = new TcpLineListener.Limits(LIMIT, TIMEOUT_MILLIS);
    ExecutorService senders = Executors.newFixedThreadPool(DRIBBLERS);
    AtomicInteger closedByServer = new AtomicInteger();
    AtomicLong mostThreads = new AtomicLong();
    try (GraphiteTcpListener listener = new GraphiteTcpListener(writer, "127.0.0.1", 0, limits, () -> 1L)) {
      long before = connectionThreads();
      List<java.util.concurrent.Future<?>> dribbling = new ArrayList<>();
      for (int i = 0; i < DRIBBLERS; i++) {
        dribbling.add(senders.submit(() -> {
          try (Socket socket = new Socket("127.0.0.1", listener.port())) {
            socket.setSoTimeout(100);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (System.nanoTime() < deadline) {
              out.write('x'); // a line that never ends
              out.flush();
              try {
                if (in.read() < 0) {
                  closedByServer.incrementAndGet();
                  return null;
                }
              } catch (java.net.SocketTimeoutException stillOpen) {
                // expected while the server keeps the connection
              }
            }
          } catch (IOException closed) {
            closedByServer.incrementAndGet(); // reset by the server
          }
          return null;
        }));
      }
      long watchUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(4);
      while (System.nanoTime() < watchUntil) {
        mostThreads.accumulateAndGet(connectionThreads() - before, Math::max);
        Thread.sleep(20);
      }
      for (java.util.concurrent.Future<?> sender : dribbling) {
        sender.get(30, TimeUnit.SECONDS);
      }
      assertTrue(mostThreads.get() <= LIMIT, "at most " + LIMIT + " connection threads, saw " + mostThreads.get());
      assertEquals(DRIBBLERS, closedByServer.get(), "every dribbler was closed by the server within 10 s");
      assertTrue(listener.refusedConnections() >= DRIBBLERS - LIMIT, "connections over the limit refused: "
          + listener.refusedConnections());
      RecordingWriter.await(() -> listener.openConnections() == 0, "the dribblers' connections to end");

      try (Socket socket = new Socket("127.0.0.1", listener.port())) {
        socket.getOutputStream().write("ok 1 100\n".getBytes(StandardCharsets.UTF_8));
        socket.getOutputStream().flush();
        assertEquals(List.of(new RecordingWriter.Point(SeriesKey.metric("ok", Map.of()), 100_000_000_000L, 1)),
            writer.awaitPoints(1));
      }
      assertEquals(0, writer.points().stream().filter(p -> p.key().name().startsWith("x")).count(),
          "nothing of an unfinished line is stored");
    } finally {
      senders.shutdownNow();
    }
  }
}
