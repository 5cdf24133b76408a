package io.chronix.ingest.protocol;

import io.chronix.ingest.pipeline.BatchWriter;
import io.chronix.ingest.pipeline.OverloadedException;
import io.chronix.ingest.pipeline.PointBatch;
import io.chronix.ingest.pipeline.PointsRejectedException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TCP port speaking a line protocol (Graphite plaintext, OpenTSDB telnet {@code put}). Each
 * connection has its own thread, which stores what it has read whenever the socket holds no more
 * input or a batch is full, so that a point arrives with at most one write of delay and a fast
 * sender still gets large batches.
 *
 * <p>Invalid lines are skipped and logged, at most once per connection every 10 seconds; the
 * connection stays open, as carbon keeps it. When the server is overloaded the thread waits the
 * advised time and retries the same batch without reading on, so the socket's buffers fill and
 * TCP slows the sender down instead of points being dropped. If storing fails otherwise, the
 * connection is closed, which is the only failure a fire-and-forget sender notices.
 *
 * <p>The protocol has no acknowledgements: points a sender wrote before a crash or a close may be
 * lost, as with carbon.
 *
 * <p>Bounds, so that no sender can take the server's threads or memory ({@link Limits}): at most
 * {@code maxConnections} connections at once (more are closed at once and counted), a connection
 * that sends nothing for {@code idleTimeout}, or takes longer than that for one line, is closed, and
 * a line is at most {@link #MAX_LINE_BYTES}.
 */
public class TcpLineListener implements AutoCloseable {

  public static final int DEFAULT_MAX_BATCH_LINES = 5_000;
  /** Far beyond any real metric line; bounds the memory one connection can claim. */
  public static final int MAX_LINE_BYTES = 64 * 1024;
  private static final long MIN_RETRY_MILLIS = 100;
  private static final long JOIN_MILLIS = 10_000;
  private static final Logger LOG = LoggerFactory.getLogger(TcpLineListener.class);

  private final String name;
  private final LineParser parser;
  private final BatchWriter writer;
  private final int maxBatchLines;
  private final ServerSocket server;
  private final Thread acceptor;
  private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
  /** Counted down on close; overloaded connections wait on it so that close need not interrupt a write. */
  private final CountDownLatch closing = new CountDownLatch(1);
  private final AtomicLong rejectedLines = new AtomicLong();
  private final AtomicLong connectionCount = new AtomicLong();
  private final AtomicLong refusedConnections = new AtomicLong();
  private final WarningLimiter refusals = new WarningLimiter(10, TimeUnit.SECONDS);
  private final Limits limits;

  /** How many connections at once, and how long one may stay silent. */
  public record Limits(int maxConnections, long idleTimeoutMillis) {
    public static final Limits DEFAULT = new Limits(256, TimeUnit.MINUTES.toMillis(5));

    public Limits {
      if (maxConnections < 1 || idleTimeoutMillis < 1 || idleTimeoutMillis > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("maxConnections and idleTimeout must be positive: " + maxConnections + ", "
            + idleTimeoutMillis + " ms");
      }
    }
  }

  /**
   * Binds and starts accepting.
   *
   * @param name names the threads and log lines (e.g. "graphite")
   * @param port 0 for any free port ({@link #port()})
   */
  public TcpLineListener(String name, LineParser parser, BatchWriter writer, String host, int port, Limits limits)
      throws IOException {
    this(name, parser, writer, host, port, limits, DEFAULT_MAX_BATCH_LINES);
  }

  public TcpLineListener(String name, LineParser parser, BatchWriter writer, String host, int port, Limits limits,
      int maxBatchLines) throws IOException {
    if (maxBatchLines < 1) {
      throw new IllegalArgumentException("maxBatchLines must be at least 1");
    }
    this.limits = limits;
    this.name = name;
    this.parser = parser;
    this.writer = writer;
    this.maxBatchLines = maxBatchLines;
    server = new ServerSocket();
    server.setReuseAddress(true);
    try {
      server.bind(new InetSocketAddress(host, port), 128);
    } catch (IOException e) {
      server.close();
      throw new IOException(name + ": cannot listen on " + host + ":" + port + ": " + e.getMessage(), e);
    }
    acceptor = new Thread(this::accept, name + "-tcp-accept");
    acceptor.setDaemon(true);
    acceptor.start();
    LOG.info("{} listening on tcp {}", name, server.getLocalSocketAddress());
  }

  public int port() {
    return server.getLocalPort();
  }

  /** Connections closed at once because {@code maxConnections} were open. */
  public long refusedConnections() {
    return refusedConnections.get();
  }

  /** Connections open now. */
  public int openConnections() {
    return connections.size();
  }

  /** Lines rejected since start, over all connections. */
  public long rejectedLines() {
    return rejectedLines.get();
  }

  private boolean closing() {
    return closing.getCount() == 0;
  }

  private void accept() {
    while (!closing()) {
      Socket socket;
      try {
        socket = server.accept();
      } catch (IOException e) {
        if (closing()) {
          return;
        }
        // e.g. out of file descriptors: pausing beats spinning on the error
        LOG.warn("{}: accepting a connection failed: {}", name, e.toString());
        pause(1000);
        continue;
      }
      if (connections.size() >= limits.maxConnections()) {
        refuse(socket);
        continue;
      }
      Connection connection = new Connection(socket, connectionCount.incrementAndGet());
      connections.add(connection);
      connection.thread.start();
    }
  }

  private void refuse(Socket socket) {
    refusedConnections.incrementAndGet();
    long suppressed = refusals.admit();
    if (suppressed >= 0) {
      LOG.warn("{}: refused a connection from {}: {} connections are open (tcp.maxConnections){}", name,
          socket.getRemoteSocketAddress(), limits.maxConnections(),
          suppressed > 0 ? " (" + suppressed + " more refused, not logged)" : "");
    }
    try {
      socket.close();
    } catch (IOException e) {
      LOG.debug("{}: closing a refused connection failed", name, e);
    }
  }

  private void pause(long millis) {
    try {
      closing.await(millis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops accepting, closes every connection and waits for their threads (a write under way ends first). */
  @Override
  public void close() throws IOException {
    if (closing()) {
      return;
    }
    closing.countDown();
    server.close();
    join(acceptor);
    // the acceptor has ended, so no connection is added any more
    for (Connection connection : connections) {
      connection.closeSocket();
    }
    for (Connection connection : connections) {
      join(connection.thread);
    }
    LOG.info("{}: tcp listener closed", name);
  }

  private void join(Thread thread) {
    try {
      thread.join(JOIN_MILLIS);
      if (thread.isAlive()) {
        LOG.warn("{}: thread {} did not end within {} ms", name, thread.getName(), JOIN_MILLIS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private final class Connection implements Runnable {
    private final Socket socket;
    private final String peer;
    private final Thread thread;
    private final WarningLimiter badLines = new WarningLimiter(10, TimeUnit.SECONDS);
    private final WarningLimiter overloads = new WarningLimiter(10, TimeUnit.SECONDS);

    Connection(Socket socket, long number) {
      this.socket = socket;
      this.peer = String.valueOf(socket.getRemoteSocketAddress());
      this.thread = new Thread(this, name + "-tcp-" + number);
      thread.setDaemon(true);
    }

    void closeSocket() {
      try {
        socket.close();
      } catch (IOException e) {
        LOG.debug("{}: closing {} failed", name, peer, e);
      }
    }

    @Override
    public void run() {
      LOG.debug("{}: connection from {}", name, peer);
      long lineNumber = 0;
      try {
        socket.setSoTimeout((int) limits.idleTimeoutMillis());
        LineInput input = new LineInput(socket.getInputStream(), MAX_LINE_BYTES, limits.idleTimeoutMillis());
        PointBatch batch = new PointBatch();
        int lines = 0;
        String line;
        while ((line = input.readLine()) != null) {
          lineNumber++;
          if (!line.isBlank()) {
            lines++;
            parse(line, lineNumber, input.lastLineTooLong(), batch);
          }
          if (lines >= maxBatchLines || !input.hasBufferedInput()) {
            if (!batch.isEmpty() && !store(batch)) {
              return;
            }
            batch = new PointBatch();
            lines = 0;
          }
        }
        if (!batch.isEmpty()) {
          store(batch);
        }
      } catch (SocketTimeoutException e) {
        LOG.debug("{}: {} too slow after line {} ({}; tcp.idleTimeout is {} ms); closing", name, peer, lineNumber,
            e.getMessage(), limits.idleTimeoutMillis());
      } catch (SocketException e) {
        if (!closing()) {
          LOG.debug("{}: connection from {} broke after line {}: {}", name, peer, lineNumber, e.toString());
        }
      } catch (IOException e) {
        LOG.warn("{}: reading from {} failed after line {}: {}", name, peer, lineNumber, e.toString());
      } finally {
        closeSocket();
        connections.remove(this);
        LOG.debug("{}: connection from {} closed after {} lines", name, peer, lineNumber);
      }
    }

    private void parse(String line, long lineNumber, boolean tooLong, PointBatch batch) throws IOException {
      try {
        if (tooLong) {
          throw new IllegalArgumentException("line longer than " + MAX_LINE_BYTES + " bytes");
        }
        parser.parseLine(line, (int) Math.min(lineNumber, Integer.MAX_VALUE), batch);
      } catch (IllegalArgumentException e) {
        rejectedLines.incrementAndGet();
        long suppressed = badLines.admit();
        if (suppressed >= 0) {
          LOG.warn("{}: skipped line {} from {}: {}{}", name, lineNumber, peer, LineParser.describe(e, line),
              suppressed > 0 ? " (" + suppressed + " more bad lines from it not logged)" : "");
        }
      }
    }

    /** @return false when the connection has to end */
    private boolean store(PointBatch batch) {
      while (true) {
        try {
          writer.write(batch);
          return true;
        } catch (OverloadedException e) {
          long waitMillis = Math.max(MIN_RETRY_MILLIS, TimeUnit.SECONDS.toMillis(e.retryAfterSeconds()));
          long suppressed = overloads.admit();
          if (suppressed >= 0) {
            LOG.warn("{}: server overloaded ({}); holding {} points from {} and retrying every {} ms",
                name, e.getMessage(), batch.size(), peer, waitMillis);
          }
          try {
            if (closing.await(waitMillis, TimeUnit.MILLISECONDS)) {
              LOG.warn("{}: dropped {} points from {}: closed while the server was overloaded", name, batch.size(), peer);
              return false;
            }
          } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return false;
          }
        } catch (PointsRejectedException e) {
          // the others are stored; the sender cannot fix old points by reconnecting
          long suppressed = badLines.admit();
          if (suppressed >= 0) {
            LOG.warn("{}: from {}: {}{}", name, peer, e.getMessage(),
                suppressed > 0 ? " (" + suppressed + " more reports not logged)" : "");
          }
          return true;
        } catch (IOException e) {
          LOG.error("{}: storing {} points from {} failed; closing the connection", name, batch.size(), peer, e);
          return false;
        } catch (RuntimeException e) {
          LOG.error("{}: storing {} points from {} failed; closing the connection", name, batch.size(), peer, e);
          return false;
        }
      }
    }
  }
}
