package io.chronix.benchmarks.peers;

import com.sun.net.httpserver.HttpServer;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sends the loads a few times to a sink that reads each body and answers 204, before any server
 * under comparison gets a request. The client is a JVM on the same two cores: its sending path runs
 * interpreted at first and takes CPU from whichever server is loaded first (VictoriaMetrics' first
 * P4 load ran at 1.09 M values/s on a cold client and at 1.88-2.47 M on a warm one, same run).
 */
final class ClientWarmUp {

  private static final int ROUNDS = 3;

  private ClientWarmUp() {}

  /** Sends each load {@value #ROUNDS} times; answers the bytes the sink read. */
  static long run(List<IngestLoad> loads) throws Exception {
    HttpServer sink = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    ExecutorService threads = Executors.newFixedThreadPool(2);
    sink.setExecutor(threads);
    AtomicLong read = new AtomicLong();
    sink.createContext("/", exchange -> {
      try (InputStream body = exchange.getRequestBody(); OutputStream ignored = exchange.getResponseBody()) {
        read.addAndGet(body.transferTo(OutputStream.nullOutputStream()));
        exchange.sendResponseHeaders(204, -1);
      }
    });
    sink.start();
    try {
      URI endpoint = URI.create("http://127.0.0.1:" + sink.getAddress().getPort() + "/write");
      long start = System.nanoTime();
      for (int round = 0; round < ROUNDS; round++) {
        for (IngestLoad load : loads) {
          load.send(endpoint, PeerComparison.CLIENT_THREADS);
        }
      }
      System.err.printf("client warmed up against a sink in %.1f s (%,d bytes)%n", (System.nanoTime() - start) / 1e9,
          read.get());
      return read.get();
    } finally {
      sink.stop(0);
      threads.shutdownNow();
    }
  }
}
