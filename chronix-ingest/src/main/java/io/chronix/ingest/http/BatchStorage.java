package io.chronix.ingest.http;

import io.chronix.ingest.pipeline.BatchWriter;
import io.chronix.ingest.pipeline.OverloadedException;
import io.chronix.ingest.pipeline.PointsRejectedException;
import io.chronix.ingest.pipeline.TooManySeriesException;
import io.chronix.ingest.pipeline.PointBatch;
import java.io.IOException;
import javax.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stores a request's batch, or answers the request when it cannot: the part every write endpoint
 * shares. 503 with Retry-After while the server stops or is overloaded (nothing stored, clients
 * retry), 500 when storing failed otherwise.
 */
public final class BatchStorage {

  private static final Logger LOG = LoggerFactory.getLogger(BatchStorage.class);
  private static final int SHUTDOWN_RETRY_SECONDS = 5;

  private BatchStorage() {}

  /** @return true when the batch is stored; false when the response has been sent instead */
  public static boolean store(PointBatch batch, BatchWriter writer, RequestGate gate, HttpServletResponse response)
      throws IOException {
    if (batch.isEmpty()) {
      return true;
    }
    if (!gate.enter()) {
      response.setHeader("Retry-After", String.valueOf(SHUTDOWN_RETRY_SECONDS));
      JsonResponses.error(response, 503, "server is shutting down");
      return false;
    }
    try {
      writer.write(batch);
      return true;
    } catch (TooManySeriesException e) {
      response.setHeader("Retry-After", String.valueOf(Math.max(1, e.retryAfterSeconds())));
      JsonResponses.error(response, 429, e.getMessage());
      return false;
    } catch (PointsRejectedException e) {
      JsonResponses.error(response, 400, e.getMessage());
      return false;
    } catch (OverloadedException e) {
      response.setHeader("Retry-After", String.valueOf(Math.max(1, e.retryAfterSeconds())));
      JsonResponses.error(response, 503, e.getMessage());
      return false;
    } catch (IOException e) {
      LOG.error("storing {} points failed", batch.size(), e);
      JsonResponses.error(response, 500, "storing points failed: " + e.getMessage());
      return false;
    } finally {
      gate.exit();
    }
  }
}
