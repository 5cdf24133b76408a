package io.chronix.ingest.protocol;

import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.metrics.IngestCounters;
import io.chronix.ingest.pipeline.BatchWriter;
import io.chronix.ingest.protocol.graphite.GraphiteTcpListener;
import io.chronix.ingest.protocol.graphite.GraphiteUdpListener;
import io.chronix.ingest.protocol.opentsdb.OpenTsdbTelnetListener;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The socket protocols (Graphite TCP and UDP, OpenTSDB telnet) on their ports. They have no
 * credentials: with auth on they listen on the loopback interface only, for a local agent or
 * relay (docs/security.md), whatever {@code http.host} says.
 */
public final class SocketListeners implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(SocketListeners.class);
  private static final String LOOPBACK = "127.0.0.1";

  private final List<AutoCloseable> open = new ArrayList<>();
  private GraphiteTcpListener graphiteTcp;
  private GraphiteUdpListener graphiteUdp;
  private OpenTsdbTelnetListener openTsdbTelnet;

  private SocketListeners() {}

  /** Binds every listener the config does not turn off; each accepts once this returns. */
  public static SocketListeners open(ServerConfig config, BatchWriter writer, IngestCounters counters,
      LongSupplier clockNanos, boolean loopbackOnly) throws IOException {
    SocketListeners listeners = new SocketListeners();
    String host = config.host();
    if (loopbackOnly && !ServerConfig.isLoopback(host)) {
      LOG.warn("auth is on: the Graphite and OpenTSDB listeners, which take no credentials, listen on {} only", LOOPBACK);
      host = LOOPBACK;
    }
    TcpLineListener.Limits limits = config.tcpLimits();
    try {
      int port = config.listenerPort("graphite.tcpPort");
      if (port >= 0) {
        listeners.graphiteTcp = listeners.add(new GraphiteTcpListener(counters.counting("graphite_tcp", writer), host, port, limits, clockNanos));
      }
      port = config.listenerPort("graphite.udpPort");
      if (port >= 0) {
        listeners.graphiteUdp = listeners.add(new GraphiteUdpListener(counters.counting("graphite_udp", writer), host, port, clockNanos));
      }
      port = config.listenerPort("opentsdb.telnetPort");
      if (port >= 0) {
        listeners.openTsdbTelnet = listeners.add(new OpenTsdbTelnetListener(counters.counting("opentsdb_telnet", writer), host, port, limits));
      }
    } catch (IOException | RuntimeException e) {
      listeners.close();
      throw e;
    }
    return listeners;
  }

  private <T extends AutoCloseable> T add(T listener) {
    open.add(listener);
    return listener;
  }

  /** Bound port of the Graphite TCP listener, -1 when off. */
  public int graphiteTcpPort() {
    return graphiteTcp == null ? -1 : graphiteTcp.port();
  }

  public int graphiteUdpPort() {
    return graphiteUdp == null ? -1 : graphiteUdp.port();
  }

  public int openTsdbTelnetPort() {
    return openTsdbTelnet == null ? -1 : openTsdbTelnet.port();
  }

  /** Stops accepting; socket writers finish their batch, nothing new arrives after this. */
  @Override
  public void close() {
    for (AutoCloseable listener : open) {
      try {
        listener.close();
      } catch (Exception e) {
        LOG.warn("closing a listener failed: {}", e.getMessage());
      }
    }
    open.clear();
  }
}
