package io.chronix.ingest.protocol.graphite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.protocol.RecordingWriter;
import io.chronix.ingest.protocol.RecordingWriter.Point;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GraphiteUdpListenerTest {

  private static void send(int port, String text) throws Exception {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    try (DatagramSocket socket = new DatagramSocket()) {
      socket.send(new DatagramPacket(bytes, bytes.length, InetAddress.getByName("127.0.0.1"), port));
    }
  }

  @Test
  void datagramsWithSeveralLinesAreStoredBadLinesSkipped() throws Exception {
    RecordingWriter writer = new RecordingWriter();
    try (GraphiteUdpListener listener = new GraphiteUdpListener(writer, "127.0.0.1", 0, () -> 7L)) {
      send(listener.port(), "a 1 10\nnot good\nb;dc=eu 2\n");
      List<Point> points = writer.awaitPoints(2);
      assertEquals(List.of(new Point(SeriesKey.metric("a", Map.of()), 10_000_000_000L, 1),
          new Point(SeriesKey.metric("b", Map.of("dc", "eu")), 7L, 2)), points);
      RecordingWriter.await(() -> listener.rejectedLines() == 1, "the bad line to be counted");
    }
  }

  @Test
  void pointsOlderThanTheirRetentionAreRefusedAndTheRestStored() throws Exception {
    RecordingWriter writer = new RecordingWriter();
    long now = 1_700_000_000_000L;
    io.chronix.ingest.pipeline.BatchWriter filtered = io.chronix.ingest.lifecycle.RetentionFilter.around(writer,
        io.chronix.ingest.lifecycle.RetentionRules.parse("1d", ""), () -> now);
    try (GraphiteUdpListener listener = new GraphiteUdpListener(filtered, "127.0.0.1", 0, () -> 7L)) {
      long fresh = now / 1000 - 60;
      send(listener.port(), "old 1 " + (now / 1000 - 2 * 86_400) + "\nnew 2 " + fresh + "\n");
      assertEquals(List.of(new Point(SeriesKey.metric("new", Map.of()), fresh * 1_000_000_000L, 2)), writer.awaitPoints(1));
      send(listener.port(), "later 3 " + fresh + "\n"); // the listener goes on after a refusal
      assertEquals(new Point(SeriesKey.metric("later", Map.of()), fresh * 1_000_000_000L, 3), writer.awaitPoints(2).get(1));
      assertEquals(0, listener.droppedPoints(), "refused points are not dropped ones: they were judged, not lost");
    }
  }

  @Test
  void overloadDropsAndCounts() throws Exception {
    RecordingWriter writer = new RecordingWriter();
    writer.overloadNext(1);
    try (GraphiteUdpListener listener = new GraphiteUdpListener(writer, "127.0.0.1", 0, () -> 7L)) {
      send(listener.port(), "a 1 10\na 2 11\n");
      RecordingWriter.await(() -> listener.droppedPoints() == 2, "the points to be dropped");
      send(listener.port(), "a 3 12\n");
      assertEquals(List.of(new Point(SeriesKey.metric("a", Map.of()), 12_000_000_000L, 3)), writer.awaitPoints(1));
      assertEquals(2, listener.droppedPoints());
    }
  }
}
