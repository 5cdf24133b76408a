package io.chronix.ingest.protocol.influx;

import java.util.Arrays;

/**
 * A line's series section (measurement and tags) as the bytes it was sent as: the key of the
 * parsed sections' cache. A parser points one probe at each line's section, so a lookup copies
 * nothing; only a section put into the cache gets bytes of its own ({@link #copy}). A String a
 * line for the lookup and a copy of the bytes for the next line's comparison were a quarter of
 * what a 10,000-series stream allocated.
 */
final class SeriesSection {

  private byte[] bytes;
  private int from;
  private int to;
  private int hash;

  /** A probe, to be pointed at sections with {@link #of}. */
  SeriesSection() {}

  private SeriesSection(byte[] bytes, int hash) {
    this.bytes = bytes;
    this.to = bytes.length;
    this.hash = hash;
  }

  /** Points this probe at {@code [from, to)} of {@code text}; answers itself. */
  SeriesSection of(byte[] text, int from, int to) {
    int h = 1;
    for (int i = from; i < to; i++) {
      h = 31 * h + text[i];
    }
    this.bytes = text;
    this.from = from;
    this.to = to;
    this.hash = h;
    return this;
  }

  /** The section with bytes of its own, for the cache: the probe's text is a request's body. */
  SeriesSection copy() {
    return new SeriesSection(Arrays.copyOfRange(bytes, from, to), hash);
  }

  int length() {
    return to - from;
  }

  /** Whether {@code [start, end)} of {@code text} holds this section's bytes. */
  boolean isAt(byte[] text, int start, int end) {
    return end - start == to - from && Arrays.equals(text, start, end, bytes, from, to);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof SeriesSection section && section.hash == hash && isAt(section.bytes, section.from, section.to);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return new String(bytes, from, to - from, java.nio.charset.StandardCharsets.UTF_8);
  }
}
