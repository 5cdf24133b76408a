package io.chronix.ingest.protocol.graphite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.protocol.RecordingWriter;
import io.chronix.ingest.protocol.RecordingWriter.Point;
import io.chronix.ingest.protocol.TcpLineListener;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GraphiteTcpListenerTest {

  private static final long NOW = 42L;

  private static Point point(String name, long seconds, double value) {
    return new Point(SeriesKey.metric(name, Map.of()), seconds * 1_000_000_000L, value);
  }

  private static void send(int port, String text) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      OutputStream out = socket.getOutputStream();
      out.write(text.getBytes(StandardCharsets.UTF_8));
      out.flush();
    }
  }

  @Test
  void storesTheGoodLinesAndSkipsTheBadOne() throws Exception {
    RecordingWriter writer = new RecordingWriter();
    try (GraphiteTcpListener listener = new GraphiteTcpListener(writer, "127.0.0.1", 0, TcpLineListener.Limits.DEFAULT, () -> NOW)) {
      assertTrue(listener.port() > 0);
      send(listener.port(), "a.b 1 100\nthis is not graphite\nc;host=x 2.5 101\r\nd 3\n");
      List<Point> points = writer.awaitPoints(3);
      assertEquals(List.of(point("a.b", 100, 1),
          new Point(SeriesKey.metric("c", Map.of("host", "x")), 101_000_000_000L, 2.5),
          new Point(SeriesKey.metric("d", Map.of()), NOW, 3)), points);
      RecordingWriter.await(() -> listener.rejectedLines() == 1, "the bad line to be counted");
    }
    assertEquals(3, writer.points().size(), "nothing more arrives");
  }

  @Test
  void connectionStaysOpenAfterABadLine() throws Exception {
    RecordingWriter writer = new RecordingWriter();
    try (GraphiteTcpListener listener = new GraphiteTcpListener(writer, "127.0.0.1", 0, TcpLineListener.Limits.DEFAULT, () -> NOW);
        Socket socket = new Socket("127.0.0.1", listener.port())) {
      OutputStream out = socket.getOutputStream();
      out.write("bad\n".getBytes(StandardCharsets.UTF_8));
      out.flush();
      RecordingWriter.await(() -> listener.rejectedLines() == 1, "the bad line");
      out.write("a 1 1\n".getBytes(StandardCharsets.UTF_8));
      out.flush();
      assertEquals(List.of(point("a", 1, 1)), writer.awaitPoints(1));
    }
  }

  @Test
  void lastLineWithoutNewlineIsStoredAtEndOfStream() throws Exception {
    RecordingWriter writer = new RecordingWriter();
    try (GraphiteTcpListener listener = new GraphiteTcpListener(writer, "127.0.0.1", 0, TcpLineListener.Limits.DEFAULT, () -> NOW)) {
      send(listener.port(), "a 1 1\na 2 2");
      assertEquals(List.of(point("a", 1, 1), point("a", 2, 2)), writer.awaitPoints(2));
    }
  }

  @Test
  void overloadHoldsTheBatchAndRetriesUntilStoredExactlyOnce() throws Exception {
    RecordingWriter writer = new RecordingWriter();
    writer.overloadNext(2);
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 1000; i++) {
      lines.append("series.").append(i % 7).append(' ').append(i).append(' ').append(1000 + i).append('\n');
    }
    try (GraphiteTcpListener listener = new GraphiteTcpListener(writer, "127.0.0.1", 0, TcpLineListener.Limits.DEFAULT, () -> NOW)) {
      send(listener.port(), lines.toString());
      List<Point> points = writer.awaitPoints(1000);
      Thread.sleep(200);
      assertEquals(1000, writer.points().size());
      Set<Double> values = new HashSet<>();
      for (Point point : points) {
        assertTrue(values.add(point.value()), "stored twice: " + point);
      }
      assertEquals(2, writer.refusals());
    }
  }

  @Test
  void fullBatchesAreWrittenWhileInputKeepsComing() throws Exception {
    RecordingWriter writer = new RecordingWriter();
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 100; i++) {
      lines.append("a ").append(i).append(' ').append(i + 1).append('\n');
    }
    try (TcpLineListener listener = new TcpLineListener("test", new GraphiteParser(NOW), writer, "127.0.0.1", 0,
        TcpLineListener.Limits.DEFAULT, 10)) {
      send(listener.port(), lines.toString());
      writer.awaitPoints(100);
      assertTrue(writer.writes() >= 10, "at most 10 lines per batch, so at least 10 writes: " + writer.writes());
    }
  }

  @Test
  void overlongLineIsRejectedAndReadingGoesOn() throws Exception {
    RecordingWriter writer = new RecordingWriter();
    try (GraphiteTcpListener listener = new GraphiteTcpListener(writer, "127.0.0.1", 0, TcpLineListener.Limits.DEFAULT, () -> NOW)) {
      send(listener.port(), "a".repeat(TcpLineListener.MAX_LINE_BYTES + 10) + " 1 1\nb 2 2\n");
      assertEquals(List.of(point("b", 2, 2)), writer.awaitPoints(1));
      RecordingWriter.await(() -> listener.rejectedLines() == 1, "the long line");
    }
  }

  @Test
  void closeEndsOpenConnections() throws Exception {
    RecordingWriter writer = new RecordingWriter();
    GraphiteTcpListener listener = new GraphiteTcpListener(writer, "127.0.0.1", 0, TcpLineListener.Limits.DEFAULT, () -> NOW);
    try (Socket socket = new Socket("127.0.0.1", listener.port())) {
      socket.getOutputStream().write("a 1 1\n".getBytes(StandardCharsets.UTF_8));
      writer.awaitPoints(1);
      listener.close();
      socket.setSoTimeout(5000);
      InputStream in = socket.getInputStream();
      assertEquals(-1, in.read(), "the server closed the connection");
      assertThrows(IOException.class, () -> new Socket("127.0.0.1", listener.port()).close());
    }
  }
}
