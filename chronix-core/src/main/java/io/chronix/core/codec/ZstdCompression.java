package io.chronix.core.codec;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.commons.compress.compressors.zstandard.ZstdCompressorInputStream;
import org.apache.commons.compress.compressors.zstandard.ZstdCompressorOutputStream;

/** Zstandard (zstd-jni through Commons Compress): fast, with its content checksum on. */
final class ZstdCompression extends StreamCompression {

  static final int ID = 3;
  private final int level;

  ZstdCompression(int level) {
    super(ID, "zstd", level);
    this.level = level;
  }

  @Override
  protected OutputStream compressing(OutputStream out) throws IOException {
    return new ZstdCompressorOutputStream(out, level, false, true);
  }

  @Override
  protected InputStream decompressing(InputStream in) throws IOException {
    return new ZstdCompressorInputStream(in);
  }
}
