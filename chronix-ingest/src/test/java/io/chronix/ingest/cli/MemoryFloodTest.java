package io.chronix.ingest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.ingest.TestHttp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The flood that used to end in OutOfMemoryError: a server with a 256 MB heap gets 400
 * line-protocol requests of 500 new series each, every line with a 2 kB tag and a 2 kB string
 * field, from four clients at once. Every answer is 204, 429 or 503 (refused whole, retry later),
 * the log shows no OutOfMemoryError, and afterwards the server still takes and answers writes.
 */
class MemoryFloodTest {

  private static final int REQUESTS = 400;
  private static final int SERIES_PER_REQUEST = 500;
  private static final Set<Integer> REFUSALS = Set.of(429, 503);

  @TempDir Path dataDir;

  @Test
  void aFloodOfNewSeriesAndLongStringsIsRefusedNotFatal() throws Exception {
    try (ServerProcess server = ServerProcess.start("256m", dataDir)) {
      HttpClient client = TestHttp.builder().connectTimeout(Duration.ofSeconds(10)).build();
      String tag = "t".repeat(2048);
      String text = "s".repeat(2048);
      Map<Integer, AtomicInteger> statuses = new TreeMap<>();
      List<String> unexpected = new ArrayList<>();
      ExecutorService clients = Executors.newFixedThreadPool(4);
      try {
        List<Future<?>> sent = new ArrayList<>();
        for (int request = 0; request < REQUESTS; request++) {
          int first = request * SERIES_PER_REQUEST;
          sent.add(clients.submit(() -> {
            StringBuilder body = new StringBuilder(SERIES_PER_REQUEST * 4200);
            for (int series = first; series < first + SERIES_PER_REQUEST; series++) {
              body.append("flood,big=").append(tag).append(",n=").append(series)
                  .append(" msg=\"").append(text).append("\" 1700000000\n");
            }
            HttpResponse<String> answer;
            try {
              answer = client.send(
                  HttpRequest.newBuilder(URI.create(server.baseUrl() + "/write?precision=s"))
                      .timeout(Duration.ofSeconds(120)).POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(),
                  HttpResponse.BodyHandlers.ofString());
            } catch (java.io.IOException e) {
              synchronized (statuses) {
                unexpected.add("no answer: " + e); // a server in a garbage collection spiral
              }
              return null;
            }
            synchronized (statuses) {
              statuses.computeIfAbsent(answer.statusCode(), s -> new AtomicInteger()).incrementAndGet();
              if (answer.statusCode() != 204 && !REFUSALS.contains(answer.statusCode())) {
                unexpected.add(answer.statusCode() + " " + answer.body());
              } else if (REFUSALS.contains(answer.statusCode()) && answer.headers().firstValue("Retry-After").isEmpty()) {
                unexpected.add(answer.statusCode() + " without Retry-After: " + answer.body());
              }
            }
            return null;
          }));
        }
        for (Future<?> future : sent) {
          future.get();
        }
      } finally {
        clients.shutdownNow();
      }
      System.out.println("flood answers by status: " + statuses);
      assertTrue(unexpected.isEmpty(), "only 204, 429 and 503 (with Retry-After), got " + statuses + ": "
          + unexpected.subList(0, Math.min(3, unexpected.size())));
      assertTrue(statuses.containsKey(204), "some of the flood was taken: " + statuses);
      assertTrue(server.isAlive(), "the server survived");
      assertFalse(server.output().contains("OutOfMemoryError"), "no OutOfMemoryError in the log");

      // the pressure passes: a small write is taken (after a retry or two) and answered
      int status = 0;
      for (int attempt = 0; attempt < 60 && status != 204; attempt++) {
        status = client.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/write?precision=s"))
                .POST(HttpRequest.BodyPublishers.ofString("after,host=a value=7 1700000000")).build(),
            HttpResponse.BodyHandlers.ofString()).statusCode();
        if (status != 204) {
          Thread.sleep(1000);
        }
      }
      assertEquals(204, status, "a small write goes through once the flood is over");
      HttpResponse<String> query = client.send(HttpRequest.newBuilder(URI.create(server.baseUrl()
          + "/api/v1/query?query=after&time=1700000000")).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(200, query.statusCode(), query.body());
      assertTrue(query.body().contains("\"7\""), query.body());
      assertFalse(server.output().contains("OutOfMemoryError"), "no OutOfMemoryError in the log");
    }
  }
}
