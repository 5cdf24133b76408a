package io.chronix.ingest.http;

import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import org.eclipse.jetty.util.compression.CompressionPool;
import org.eclipse.jetty.util.compression.DeflaterPool;

/**
 * How the server compresses its answers for clients that accept gzip (Grafana always does): at
 * DEFLATE's fastest level. Answers go to dashboards over a network, once; at the default level a
 * PromQL range of 72,000 values spent 52 ms compressing 1.2 MB against 20 ms for the whole query
 * without it, and VictoriaMetrics answered in 20 ms compressed (docs/benchmarks.md).
 */
public final class ResponseCompression {

  /** DEFLATE's level for answers. */
  public static final int LEVEL = Deflater.BEST_SPEED;

  private ResponseCompression() {}

  /** A gzip stream over the response's body at {@link #LEVEL}. */
  public static OutputStream gzip(OutputStream body, int bufferBytes) throws IOException {
    return new GZIPOutputStream(body, bufferBytes) {
      {
        def.setLevel(LEVEL);
      }
    };
  }

  /** The deflaters for Jetty's GzipHandler, at {@link #LEVEL} (raw DEFLATE: Jetty writes the gzip frame). */
  public static DeflaterPool deflaters() {
    return new DeflaterPool(CompressionPool.DEFAULT_CAPACITY, LEVEL, true);
  }
}
