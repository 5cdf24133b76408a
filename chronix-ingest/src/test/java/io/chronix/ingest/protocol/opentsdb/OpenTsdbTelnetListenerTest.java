package io.chronix.ingest.protocol.opentsdb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.protocol.RecordingWriter;
import io.chronix.ingest.protocol.RecordingWriter.Point;
import io.chronix.ingest.protocol.TcpLineListener;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OpenTsdbTelnetListenerTest {

  @Test
  void putLinesOverTcp() throws Exception {
    RecordingWriter writer = new RecordingWriter();
    try (OpenTsdbTelnetListener listener = new OpenTsdbTelnetListener(writer, "127.0.0.1", 0, TcpLineListener.Limits.DEFAULT)) {
      try (Socket socket = new Socket("127.0.0.1", listener.port())) {
        OutputStream out = socket.getOutputStream();
        out.write("put a 1346846400 1 host=x\nstats\nput b 1346846400500 2 host=y\n".getBytes(StandardCharsets.UTF_8));
      }
      assertEquals(List.of(
          new Point(SeriesKey.metric("a", Map.of("host", "x")), 1_346_846_400_000_000_000L, 1),
          new Point(SeriesKey.metric("b", Map.of("host", "y")), 1_346_846_400_500_000_000L, 2)), writer.awaitPoints(2));
      RecordingWriter.await(() -> listener.rejectedLines() == 1, "'stats' to be rejected");
    }
  }
}
