package io.chronix.ingest.protocol.graphite;

import io.chronix.ingest.pipeline.BatchWriter;
import io.chronix.ingest.protocol.UdpLineListener;
import java.io.IOException;
import java.util.function.LongSupplier;

/** Carbon's plaintext UDP receiver: points are dropped (and counted) while the server is overloaded. */
public final class GraphiteUdpListener extends UdpLineListener {

  /**
   * @param port 0 for any free port
   * @param clockNanos the server clock, for lines without a timestamp
   */
  public GraphiteUdpListener(BatchWriter writer, String host, int port, LongSupplier clockNanos) throws IOException {
    super("graphite", new GraphiteParser(clockNanos), writer, host, port);
  }
}
