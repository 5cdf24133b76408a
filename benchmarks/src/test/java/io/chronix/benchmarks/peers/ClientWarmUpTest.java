package io.chronix.benchmarks.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClientWarmUpTest {

  @Test
  void everyBodyOfEveryLoadReachesTheSinkInEachRound() throws Exception {
    List<byte[]> lines = List.of("cpu,host=a value=1 1\n".getBytes(StandardCharsets.UTF_8),
        "cpu,host=b value=2 2\ncpu,host=c value=3 3\n".getBytes(StandardCharsets.UTF_8));
    List<byte[]> samples = List.of(new byte[1000], new byte[70_000]);
    IngestLoad lineProtocol = new IngestLoad("lines", lines, 3, 0, "text/plain; charset=utf-8", null);
    IngestLoad remoteWrite = new IngestLoad("samples", samples, 2, 0, "application/x-protobuf", "snappy");
    long oneRound = lines.get(0).length + lines.get(1).length + 1000 + 70_000;

    assertEquals(3 * oneRound, ClientWarmUp.run(List.of(lineProtocol, remoteWrite)));
  }
}
