package io.chronix.ingest.protocol;

import io.chronix.ingest.pipeline.BatchWriter;
import io.chronix.ingest.pipeline.OverloadedException;
import io.chronix.ingest.pipeline.PointBatch;
import io.chronix.ingest.pipeline.PointsRejectedException;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A UDP port speaking a line protocol; a datagram may hold several lines and is stored as one
 * batch. UDP cannot slow a sender down, so when the server is overloaded the datagram's points are
 * dropped and counted ({@link #droppedPoints()}), with a warning at most every 10 seconds.
 */
public class UdpLineListener implements AutoCloseable {

  private static final int MAX_DATAGRAM = 65_535;
  /** Bursts from many agents arrive while a batch is being written; the kernel holds them meanwhile. */
  private static final int RECEIVE_BUFFER_BYTES = 4 << 20;
  private static final long JOIN_MILLIS = 10_000;
  private static final Logger LOG = LoggerFactory.getLogger(UdpLineListener.class);

  private final String name;
  private final LineParser parser;
  private final BatchWriter writer;
  private final DatagramSocket socket;
  private final Thread receiver;
  private final WarningLimiter badLines = new WarningLimiter(10, TimeUnit.SECONDS);
  private final WarningLimiter drops = new WarningLimiter(10, TimeUnit.SECONDS);
  private final AtomicLong rejectedLines = new AtomicLong();
  private final AtomicLong droppedPoints = new AtomicLong();
  private volatile boolean closing;

  /**
   * Binds and starts receiving.
   *
   * @param name names the thread and log lines (e.g. "graphite")
   * @param port 0 for any free port ({@link #port()})
   */
  public UdpLineListener(String name, LineParser parser, BatchWriter writer, String host, int port) throws IOException {
    this.name = name;
    this.parser = parser;
    this.writer = writer;
    socket = new DatagramSocket(null);
    try {
      socket.setReceiveBufferSize(RECEIVE_BUFFER_BYTES);
      socket.bind(new InetSocketAddress(host, port));
    } catch (IOException e) {
      socket.close();
      throw new IOException(name + ": cannot listen on udp " + host + ":" + port + ": " + e.getMessage(), e);
    }
    receiver = new Thread(this::receive, name + "-udp");
    receiver.setDaemon(true);
    receiver.start();
    LOG.info("{} listening on udp {}", name, socket.getLocalSocketAddress());
  }

  public int port() {
    return socket.getLocalPort();
  }

  public long rejectedLines() {
    return rejectedLines.get();
  }

  /** Points of valid lines that could not be stored (overload or storage failure). */
  public long droppedPoints() {
    return droppedPoints.get();
  }

  private void receive() {
    byte[] buffer = new byte[MAX_DATAGRAM];
    DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
    while (!closing) {
      try {
        packet.setLength(buffer.length);
        socket.receive(packet);
      } catch (IOException e) {
        if (closing) {
          return;
        }
        LOG.warn("{}: receiving a datagram failed: {}", name, e.toString());
        continue;
      }
      String text = new String(packet.getData(), packet.getOffset(), packet.getLength(), StandardCharsets.UTF_8);
      handle(text, String.valueOf(packet.getSocketAddress()));
    }
  }

  private void handle(String text, String peer) {
    PointBatch batch = new PointBatch();
    ParseResult result;
    try {
      result = parser.parse(text, batch);
    } catch (IOException e) {
      // a PointBatch does not fail; this is a parser bug, and one datagram is all it costs
      LOG.error("{}: parsing a datagram from {} failed", name, peer, e);
      return;
    }
    if (result.hasErrors()) {
      rejectedLines.addAndGet(result.errors().size());
      long suppressed = badLines.admit();
      if (suppressed >= 0) {
        LOG.warn("{}: skipped {} line(s) of a datagram from {}, first {}{}", name, result.errors().size(), peer,
            result.errors().get(0), suppressed > 0 ? " (" + suppressed + " more reports not logged)" : "");
      }
    }
    if (batch.isEmpty()) {
      return;
    }
    try {
      writer.write(batch);
    } catch (OverloadedException e) {
      drop(batch, "server overloaded (" + e.getMessage() + ")", null);
    } catch (PointsRejectedException e) {
      long suppressed = badLines.admit();
      if (suppressed >= 0) {
        LOG.warn("{}: from {}: {}{}", name, peer, e.getMessage(),
            suppressed > 0 ? " (" + suppressed + " more reports not logged)" : "");
      }
    } catch (IOException | RuntimeException e) {
      drop(batch, "storing failed", e);
    }
  }

  private void drop(PointBatch batch, String reason, Exception failure) {
    long total = droppedPoints.addAndGet(batch.size());
    long suppressed = drops.admit();
    if (suppressed >= 0) {
      if (failure == null) {
        LOG.warn("{}: dropped {} udp points: {}; {} dropped since start", name, batch.size(), reason, total);
      } else {
        LOG.error("{}: dropped {} udp points: {}; {} dropped since start", name, batch.size(), reason, total, failure);
      }
    }
  }

  @Override
  public void close() {
    if (closing) {
      return;
    }
    closing = true;
    socket.close();
    try {
      receiver.join(JOIN_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    LOG.info("{}: udp listener closed", name);
  }
}
