package io.chronix.ingest.protocol.opentsdb;

import io.chronix.ingest.pipeline.BatchWriter;
import io.chronix.ingest.protocol.TcpLineListener;
import java.io.IOException;

/**
 * OpenTSDB's telnet {@code put} over TCP (OpenTSDB serves it on its HTTP port 4242; here it has a
 * port of its own). Bad lines are logged, not answered: see {@link OpenTsdbTelnetParser}.
 */
public final class OpenTsdbTelnetListener extends TcpLineListener {

  /** @param port 0 for any free port */
  public OpenTsdbTelnetListener(BatchWriter writer, String host, int port, Limits limits) throws IOException {
    super("opentsdb", new OpenTsdbTelnetParser(), writer, host, port, limits);
  }
}
