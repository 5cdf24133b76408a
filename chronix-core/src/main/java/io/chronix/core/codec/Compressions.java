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
        return parts.length == 1 ? GZIP : new GzipCompression(parseLevel(spec, parts[1]));
      default:
        throw new IllegalArgumentException("unknown compression '" + spec + "' (known: none, gzip[:level])");
    }
  }

  private static int parseLevel(String spec, String level) {
    try {
      int value = Integer.parseInt(level);
      if (value >= 1 && value <= 9) {
        return value;
      }
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new IllegalArgumentException("compression level in '" + spec + "' must be 1 to 9");
  }
}
