package io.chronix.ingest.protocol.opentsdb;

import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.SeriesOrigin;
import io.chronix.ingest.protocol.Attributes;
import io.chronix.ingest.protocol.LineParser;
import io.chronix.ingest.protocol.PointSink;
import io.chronix.ingest.protocol.WireNumbers;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * OpenTSDB's telnet-style protocol: {@code put <metric> <timestamp> <value> [<tagk=tagv> ...]},
 * words separated by spaces or tabs. The metric is the series name and the tags its attributes;
 * the timestamp follows {@link OpenTsdbTimestamps}; the value is a decimal number, NaN and
 * infinities rejected.
 *
 * <p>Differences from OpenTSDB: a point without tags is accepted (OpenTSDB requires at least
 * one), since a series needs none here. Every other command ({@code version}, {@code stats},
 * {@code help}, ...) is an error line, "unknown command": this server only ingests, and nothing is
 * written back on the socket.
 */
public final class OpenTsdbTelnetParser implements LineParser {

  private static final String USAGE = "expected 'put <metric> <timestamp> <value> [<tagk=tagv> ...]'";

  @Override
  public void parseLine(String line, int lineNumber, PointSink sink) throws IOException {
    String[] words = line.strip().split("[ \t]+");
    if (!words[0].equals("put")) {
      throw new IllegalArgumentException("unknown command '" + abbreviate(words[0]) + "' (only 'put' is accepted)");
    }
    if (words.length < 4) {
      throw new IllegalArgumentException("too few words: " + USAGE);
    }
    String metric = words[1];
    long timestamp = OpenTsdbTimestamps.nanos(words[2]);
    double value = WireNumbers.value(words[3]);
    Map<String, String> attributes = new TreeMap<>();
    for (int i = 4; i < words.length; i++) {
      String tag = words[i];
      int equals = tag.indexOf('=');
      if (equals <= 0 || equals == tag.length() - 1 || tag.indexOf('=', equals + 1) >= 0) {
        throw new IllegalArgumentException("tag '" + abbreviate(tag) + "' is not tagk=tagv");
      }
      OpenTsdbTags.put(attributes, tag.substring(0, equals), tag.substring(equals + 1));
    }
    sink.accept(SeriesKey.metric(metric, Attributes.withOrigin(attributes, SeriesOrigin.OPENTSDB)), timestamp, value);
  }

  private static String abbreviate(String word) {
    return word.length() <= 40 ? word : word.substring(0, 37) + "...";
  }
}
