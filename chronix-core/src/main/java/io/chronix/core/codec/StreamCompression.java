package io.chronix.core.codec;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * A compressor that Commons Compress offers as a pair of streams (gzip, xz, zstd): compressing
 * and decompressing whole chunks in memory is the same for all of them.
 */
abstract class StreamCompression implements Compression {

  private final int id;
  private final String name;

  /** @param level the compressor's level (preset), part of the name ({@code gzip:6}) */
  StreamCompression(int id, String family, int level) {
    this.id = id;
    this.name = family + ":" + level;
  }

  @Override
  public final int id() {
    return id;
  }

  @Override
  public final String name() {
    return name;
  }

  protected abstract OutputStream compressing(OutputStream out) throws IOException;

  protected abstract InputStream decompressing(InputStream in) throws IOException;

  @Override
  public byte[] compress(byte[] data, int offset, int length) {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream(length / 4 + 64);
    try (OutputStream out = compressing(buffer)) {
      out.write(data, offset, length);
    } catch (IOException e) {
      throw new UncheckedIOException(name() + " into memory failed", e);
    }
    return buffer.toByteArray();
  }

  @Override
  public byte[] decompress(byte[] data, int offset, int length, long maxBytes) {
    try (InputStream in = decompressing(new ByteArrayInputStream(data, offset, length))) {
      ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, (int) Math.min(maxBytes, 4L * length)));
      byte[] chunk = new byte[8192];
      long total = 0;
      int read;
      while ((read = in.read(chunk)) >= 0) {
        total += read;
        if (total > maxBytes) {
          throw new CorruptBlobException(name() + " section decompresses to more than " + maxBytes + " bytes");
        }
        out.write(chunk, 0, read);
      }
      return out.toByteArray();
    } catch (CorruptBlobException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new CorruptBlobException(name() + " section is damaged: " + e.getMessage(), e);
    }
  }
}
