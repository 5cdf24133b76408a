package io.chronix.ingest.cluster;

import io.chronix.ingest.pipeline.OverloadedException;
import io.chronix.ingest.pipeline.PointBatch;
import io.chronix.ingest.wal.WalEntries;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Sends a batch to the ingest node that owns its series ({@link ForwardServlet} there): format
 * version 2 if the batch holds an array point, else 1 (which nodes before array series read too, so a
 * cluster can be upgraded node by node), one byte, then the batch as one write-ahead-log entry
 * (docs/formats.md). The owner
 * answers 204 once the batch is in its log and buffers, as for any write.
 */
public final class BatchForwarder {

  static final String PATH = "/internal/forward";
  static final byte FORMAT_VERSION = 2;
  /** Sent by nodes before array series; the same entries, none of them arrays. */
  static final byte FORMAT_VERSION_1 = 1;
  /** How long an owner may take; past it the client's request is answered 503, nothing of it stored here. */
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final String token;

  /** @param token a bearer token with the write role for owners that require one; empty for none */
  public BatchForwarder(String token) {
    this.token = token;
  }

  private static boolean holdsArrays(PointBatch batch) {
    for (int i = 0; i < batch.size(); i++) {
      if (batch.key(i).valueType() == io.chronix.core.series.ValueType.ARRAY) {
        return true;
      }
    }
    return false;
  }

  /** @throws OverloadedException when the owner cannot take the batch now (the client resends) */
  void send(String owner, PointBatch batch) throws IOException {
    byte[] entry = WalEntries.encode(batch);
    byte[] body = new byte[entry.length + 1];
    body[0] = holdsArrays(batch) ? FORMAT_VERSION : FORMAT_VERSION_1;
    System.arraycopy(entry, 0, body, 1, entry.length);
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(owner + PATH)).timeout(TIMEOUT)
        .header("Content-Type", "application/x-chronix-batch")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (!token.isEmpty()) {
      request.header("Authorization", "Bearer " + token);
    }
    HttpResponse<String> response;
    try {
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new OverloadedException("ingest node " + owner + ", which owns " + batch.size() + " points of this"
          + " request, cannot be reached (" + e + "); nothing stored: retry", 1);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new OverloadedException("interrupted while forwarding to " + owner + "; nothing stored: retry", 1);
    }
    if (response.statusCode() == 204) {
      return;
    }
    if (response.statusCode() == 503 || response.statusCode() == 429) {
      int retry = response.headers().firstValue("Retry-After").filter(v -> v.matches("\\d{1,4}"))
          .map(Integer::parseInt).orElse(1);
      throw new OverloadedException("ingest node " + owner + " cannot take its points now: " + response.body(), retry);
    }
    throw new IOException("ingest node " + owner + " refused forwarded points with " + response.statusCode() + ": "
        + response.body());
  }
}
