package io.chronix.core.codec;

import java.util.Locale;

/** The compressors a blob may name, by id and by configuration name. */
public final class Compressions {

  public static final Compression NONE = new NoCompression();
  public static final Compression GZIP = new GzipCompression(6);

  private Compressions() {}

  public static Compression byId(int id) {
    switch (id) {
      case NoCompression.ID:
        return NONE;
      case GzipCompression.ID:
        return GZIP;
      case XzCompression.ID:
        return new XzCompression(6); // the preset only matters when compressing
      case ZstdCompression.ID:
        return new ZstdCompression(3);
      default:
        throw new CorruptBlobException("unknown compression id " + id);
    }
  }

  /** Parses a configuration value such as {@code gzip}, {@code gzip:9} or {@code none}. */
  public static Compression byName(String spec) {
    String[] parts = spec.trim().toLowerCase(Locale.ROOT).split(":", 2);
    switch (parts[0]) {
      case "none":
        return NONE;
      case "gzip":
        return parts.length == 1 ? GZIP : new GzipCompression(parseLevel(spec, parts[1], 1, 9));
      case "xz":
        return new XzCompression(parts.length == 1 ? 6 : parseLevel(spec, parts[1], 0, 9));
      case "zstd":
        return new ZstdCompression(parts.length == 1 ? 3 : parseLevel(spec, parts[1], 1, 22));
      default:
        throw new IllegalArgumentException("unknown compression '" + spec
            + "' (known: none, gzip[:1-9], xz[:0-9], zstd[:1-22])");
    }
  }

  private static int parseLevel(String spec, String level, int min, int max) {
    try {
      int value = Integer.parseInt(level);
      if (value >= min && value <= max) {
        return value;
      }
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new IllegalArgumentException("compression level in '" + spec + "' must be " + min + " to " + max);
  }
}
