package io.chronix.core.codec;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;
import org.apache.commons.compress.compressors.gzip.GzipParameters;

/** Gzip (deflate with a CRC-32 trailer that catches damaged blobs), via Commons Compress. */
final class GzipCompression implements Compression {

  static final int ID = 1;
  private final int level;

  GzipCompression(int level) {
    this.level = level;
  }

  @Override
  public int id() {
    return ID;
  }

  @Override
  public String name() {
    return "gzip:" + level;
  }

  @Override
  public byte[] compress(byte[] data, int offset, int length) {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream(length / 4 + 32);
    GzipParameters parameters = new GzipParameters();
    parameters.setCompressionLevel(level);
    try (GzipCompressorOutputStream gzip = new GzipCompressorOutputStream(buffer, parameters)) {
      gzip.write(data, offset, length);
    } catch (IOException e) {
      throw new UncheckedIOException("gzip into memory failed", e);
    }
    return buffer.toByteArray();
  }

  @Override
  public byte[] decompress(byte[] data, int offset, int length) {
    try (GzipCompressorInputStream gzip =
        new GzipCompressorInputStream(new ByteArrayInputStream(data, offset, length))) {
      return gzip.readAllBytes();
    } catch (IOException e) {
      throw new CorruptBlobException("gzip section is damaged: " + e.getMessage(), e);
    }
  }
}
