package io.chronix.ingest.http;

import java.util.zip.Deflater;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.handler.gzip.GzipHandler;
import org.eclipse.jetty.util.compression.CompressionPool;
import org.eclipse.jetty.util.compression.DeflaterPool;

/**
 * How the server compresses its answers for clients that accept gzip (Grafana always does):
 * Jetty's {@link GzipHandler} in front of Solr's node and of the server's own endpoints, with
 * pooled deflaters at DEFLATE's fastest level, for answers of {@link #MIN_BYTES} and more.
 *
 * <p>The fastest level: answers go to dashboards over a network, once; at the default level a
 * PromQL range of 72,000 values spent 52 ms compressing 1.2 MB against 20 ms for the whole query
 * without it, and VictoriaMetrics answered in 20 ms compressed (docs/benchmarks.md). One handler
 * for every endpoint: the PromQL API once compressed its answers itself, each with a deflater of
 * its own however small the answer.
 */
public final class ResponseCompression {

  /** DEFLATE's level for answers. */
  public static final int LEVEL = Deflater.BEST_SPEED;

  /** Smaller answers go as they are: they fit a network packet either way. */
  public static final int MIN_BYTES = 1_024;

  private ResponseCompression() {}

  /**
   * The handler compressing {@code handler}'s answers: GET and POST (Grafana posts PromQL forms),
   * answers that set no encoding of their own (remote read's snappy goes as it is).
   */
  public static GzipHandler around(Handler handler) {
    GzipHandler gzip = new GzipHandler();
    gzip.setIncludedMethods("GET", "POST");
    gzip.setMinGzipSize(MIN_BYTES);
    gzip.setDeflaterPool(new DeflaterPool(CompressionPool.DEFAULT_CAPACITY, LEVEL, true));
    gzip.setHandler(handler);
    return gzip;
  }
}
