package io.chronix.core.codec;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorOutputStream;

/** xz (LZMA2, with its own CRC), via Commons Compress: slow, small. */
final class XzCompression extends StreamCompression {

  static final int ID = 2;
  private final int preset;

  XzCompression(int preset) {
    super(ID, "xz", preset);
    this.preset = preset;
  }

  @Override
  protected OutputStream compressing(OutputStream out) throws IOException {
    return new XZCompressorOutputStream(out, preset);
  }

  @Override
  protected InputStream decompressing(InputStream in) throws IOException {
    return new XZCompressorInputStream(in);
  }
}
