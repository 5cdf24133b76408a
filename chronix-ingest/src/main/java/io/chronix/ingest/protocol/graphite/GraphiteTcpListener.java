package io.chronix.ingest.protocol.graphite;

import io.chronix.ingest.pipeline.BatchWriter;
import io.chronix.ingest.protocol.TcpLineListener;
import java.io.IOException;
import java.util.function.LongSupplier;

/** Carbon's plaintext TCP receiver (conventionally port 2003). */
public final class GraphiteTcpListener extends TcpLineListener {

  /**
   * @param port 0 for any free port
   * @param clockNanos the server clock, for lines without a timestamp
   */
  public GraphiteTcpListener(BatchWriter writer, String host, int port, Limits limits, LongSupplier clockNanos)
      throws IOException {
    super("graphite", new GraphiteParser(clockNanos), writer, host, port, limits);
  }
}
