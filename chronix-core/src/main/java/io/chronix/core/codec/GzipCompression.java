package io.chronix.core.codec;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;
import org.apache.commons.compress.compressors.gzip.GzipParameters;

/** Gzip (deflate with a CRC-32 trailer), via Commons Compress. */
final class GzipCompression extends StreamCompression {

  static final int ID = 1;
  private final int level;

  GzipCompression(int level) {
    super(ID, "gzip", level);
    this.level = level;
  }

  @Override
  protected OutputStream compressing(OutputStream out) throws IOException {
    GzipParameters parameters = new GzipParameters();
    parameters.setCompressionLevel(level);
    return new GzipCompressorOutputStream(out, parameters);
  }

  @Override
  protected InputStream decompressing(InputStream in) throws IOException {
    return new GzipCompressorInputStream(in);
  }
}
