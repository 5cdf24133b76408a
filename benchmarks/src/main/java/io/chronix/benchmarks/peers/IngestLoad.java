package io.chronix.benchmarks.peers;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A write load prepared once and sent unchanged to every server: request bodies rendered before
 * the clock starts, sent by a fixed number of client threads over keep-alive connections, each
 * taking the next body. The time runs until the last request is acknowledged; a 429 or 503 (back
 * pressure) is retried after a pause and counts as time.
 */
record IngestLoad(String name, List<byte[]> bodies, long values, long csvBytes, String contentType,
    String contentEncoding) {

  /** What one server did with the load. */
  record Outcome(long nanos, int retries) {
    double valuesPerSecond(long values) {
      return values * 1e9 / nanos;
    }
  }

  /** Bodies {@code from} to {@code to - 1}, to be sent as the load sends them; its counts stay the whole load's. */
  IngestLoad slice(int from, int to) {
    return new IngestLoad(name, bodies.subList(from, to), values, csvBytes, contentType, contentEncoding);
  }

  Outcome send(URI endpoint, int threads) throws Exception {
    return send(List.of(endpoint), threads);
  }

  /** Body {@code i} goes to {@code endpoints[i % n]}: several ingest nodes take turns. */
  Outcome send(List<URI> endpoints, int threads) throws Exception {
    AtomicInteger next = new AtomicInteger();
    AtomicInteger retries = new AtomicInteger();
    ExecutorService clients = Executors.newFixedThreadPool(threads);
    try {
      long start = System.nanoTime();
      List<Future<?>> done = new ArrayList<>();
      for (int c = 0; c < threads; c++) {
        done.add(clients.submit(() -> {
          int index;
          while ((index = next.getAndIncrement()) < bodies.size()) {
            post(endpoints.get(index % endpoints.size()), bodies.get(index), retries);
          }
          return null;
        }));
      }
      for (Future<?> future : done) {
        future.get();
      }
      return new Outcome(System.nanoTime() - start, retries.get());
    } finally {
      clients.shutdownNow();
    }
  }

  private void post(URI endpoint, byte[] body, AtomicInteger retries) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(endpoint).timeout(Duration.ofMinutes(5))
        .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (contentEncoding != null) {
      request.header("Content-Encoding", contentEncoding);
    }
    if (contentType.startsWith("application/x-protobuf")) {
      request.header("X-Prometheus-Remote-Write-Version", "0.1.0");
    }
    HttpRequest built = request.build();
    while (true) {
      HttpResponse<String> response = Http.CLIENT.send(built, HttpResponse.BodyHandlers.ofString());
      int status = response.statusCode();
      if (status / 100 == 2) {
        return;
      }
      if (status == 429 || status == 503) {
        retries.incrementAndGet();
        Thread.sleep(50);
        continue;
      }
      throw new IllegalStateException(name + ": " + endpoint + " answered " + status + ": " + response.body());
    }
  }
}
