package io.chronix.benchmarks.peers;

import com.sun.net.httpserver.HttpServer;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Sends the loads a few times to a sink that reads each body and answers 204, before any server
 * under comparison gets a request. The client is a JVM on the same two cores: its sending path runs
 * interpreted at first and takes CPU from whichever server is loaded first (VictoriaMetrics' first
 * P4 load ran at 1.09 M values/s on a cold client and at 1.88-2.47 M on a warm one, same run).
 */
final class ClientWarmUp {

  private static final int ROUNDS = 3;

  private ClientWarmUp() {}

  static void run(Workloads workloads) throws Exception {
    HttpServer sink = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    ExecutorService threads = Executors.newFixedThreadPool(2);
    sink.setExecutor(threads);
    sink.createContext("/", exchange -> {
      try (InputStream body = exchange.getRequestBody(); OutputStream ignored = exchange.getResponseBody()) {
        body.transferTo(OutputStream.nullOutputStream());
        exchange.sendResponseHeaders(204, -1);
      }
    });
    sink.start();
    try {
      URI endpoint = URI.create("http://127.0.0.1:" + sink.getAddress().getPort() + "/write");
      long start = System.nanoTime();
      for (int round = 0; round < ROUNDS; round++) {
        workloads.p4LineProtocol.send(endpoint, PeerComparison.CLIENT_THREADS);
        workloads.p4RemoteWrite.send(endpoint, PeerComparison.CLIENT_THREADS);
      }
      System.err.printf("client warmed up against a sink in %.1f s%n", (System.nanoTime() - start) / 1e9);
    } finally {
      sink.stop(0);
      threads.shutdownNow();
    }
  }
}
