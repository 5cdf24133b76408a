package io.chronix.ingest.protocol;

import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.SeriesOrigin;
import java.util.Map;
import java.util.TreeMap;

/**
 * Test helper: a series key without its origin attributes, so that tests of names and tags need
 * not repeat them; {@code OriginAttributesTest} checks those for every protocol.
 */
public final class OriginFree {

  private OriginFree() {}

  public static SeriesKey key(SeriesKey key) {
    Map<String, String> attributes = new TreeMap<>(key.attributes());
    attributes.keySet().removeIf(SeriesOrigin::isOrigin);
    return new SeriesKey(key.name(), key.type(), attributes);
  }
}
