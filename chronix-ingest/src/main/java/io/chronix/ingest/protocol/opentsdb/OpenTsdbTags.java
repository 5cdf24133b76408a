package io.chronix.ingest.protocol.opentsdb;

import io.chronix.ingest.protocol.Attributes;
import java.util.Map;

/** OpenTSDB tags become attributes; a tag given twice is an error, as in OpenTSDB. */
final class OpenTsdbTags {

  private OpenTsdbTags() {}

  static void put(Map<String, String> attributes, String tagKey, String tagValue) {
    String key = Attributes.key(tagKey);
    if (attributes.put(key, Attributes.value(key, tagValue)) != null) {
      throw new IllegalArgumentException("tag '" + tagKey + "' appears twice");
    }
  }
}
