package io.chronix.benchmarks.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.chronix.core.series.Precision;
import io.chronix.ingest.pipeline.PointBatch;
import io.chronix.ingest.protocol.LineError;
import io.chronix.ingest.protocol.LineParser;
import io.chronix.ingest.protocol.MalformedBodyException;
import io.chronix.ingest.protocol.ParseResult;
import io.chronix.ingest.protocol.PointSink;
import io.chronix.ingest.protocol.collectd.CollectdJsonParser;
import io.chronix.ingest.protocol.graphite.GraphiteParser;
import io.chronix.ingest.protocol.influx.LineProtocolParser;
import io.chronix.ingest.protocol.opentsdb.OpenTsdbJsonParser;
import io.chronix.ingest.protocol.opentsdb.OpenTsdbTelnetParser;
import io.chronix.ingest.protocol.prometheus.RemoteReadRequests;
import io.chronix.ingest.protocol.prometheus.RemoteWriteParser;
import io.chronix.ingest.protocol.prometheus.proto.ReadRequest;
import io.chronix.core.series.SeriesKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Every ingest protocol's parser on arbitrary bytes. A body parser may refuse the whole body
 * ({@link MalformedBodyException}; the endpoint then stores nothing of its batch) or report lines;
 * what it delivers must be exactly what it counts, and every delivered point must be storable (its
 * series has an id). A line parser must deliver nothing of a line it rejects.
 */
class IngestProtocolFuzzTest {

  private static final long NOW = 1_700_000_000_000_000_000L;

  private static String text(byte[] data) {
    return new String(data, StandardCharsets.UTF_8);
  }

  /** The batch holds what the result counts, each point of a storable series. */
  private static void delivered(ParseResult result, PointBatch batch) {
    Findings.check(result.points() == batch.size(), "counted " + result.points() + " points, delivered " + batch.size());
    for (LineError error : result.errors()) {
      Findings.check(error.line() >= 1 && !error.problem().isBlank(), "an error names its line and problem: " + error);
    }
    for (int i = 0; i < batch.size(); i++) {
      SeriesKey key = batch.key(i);
      Findings.check(!key.name().isEmpty(), "a point without a series name");
      key.id(); // the record id of its series
    }
  }

  @FuzzTest
  void lineProtocol(byte[] data) throws IOException {
    PointBatch batch = new PointBatch();
    delivered(new LineProtocolParser(Precision.NANOSECONDS, NOW).parse(text(data), batch), batch);
  }

  @FuzzTest
  void graphite(byte[] data) throws IOException {
    lines(new GraphiteParser(NOW), text(data));
  }

  @FuzzTest
  void openTsdbTelnet(byte[] data) throws IOException {
    lines(new OpenTsdbTelnetParser(), text(data));
  }

  /** Line by line as the parser's own body parsing splits them: a rejected line delivers nothing. */
  private static void lines(LineParser parser, String body) throws IOException {
    PointBatch batch = new PointBatch();
    delivered(parser.parse(body, batch), batch);
    int number = 0;
    for (String line : body.split("\n", -1)) {
      number++;
      if (line.isBlank()) {
        continue;
      }
      int[] points = {0};
      PointSink counting = (key, timestamp, value) -> points[0]++;
      try {
        parser.parseLine(line, number, counting);
      } catch (IllegalArgumentException rejected) {
        Findings.explained(rejected);
        Findings.check(points[0] == 0, "line " + number + " was rejected after delivering " + points[0] + " points");
      }
    }
  }

  /** A body parser as the endpoints call it. */
  @FunctionalInterface
  private interface BodyParser {
    ParseResult parse(PointBatch batch) throws IOException, MalformedBodyException;
  }

  /** Delivered as counted, or refused whole with a reason (the endpoint then drops the batch). */
  private static void body(BodyParser parser) throws IOException {
    PointBatch batch = new PointBatch();
    try {
      delivered(parser.parse(batch), batch);
    } catch (MalformedBodyException refused) {
      Findings.explained(refused);
    }
  }

  @FuzzTest
  void openTsdbJson(byte[] data) throws IOException {
    body(batch -> new OpenTsdbJsonParser(() -> NOW).parse(text(data), batch));
  }

  @FuzzTest
  void collectdJson(byte[] data) throws IOException {
    body(batch -> new CollectdJsonParser(() -> NOW).parse(text(data), batch));
  }

  @FuzzTest
  void remoteWrite(byte[] data) throws IOException {
    body(batch -> new RemoteWriteParser(1 << 20).parse(data, batch));
  }

  @FuzzTest
  void remoteRead(byte[] data) {
    ReadRequest request;
    try {
      request = RemoteReadRequests.decode(data, 1 << 20);
    } catch (MalformedBodyException refused) {
      Findings.explained(refused);
      return;
    }
    for (int q = 0; q < request.getQueriesCount(); q++) {
      try {
        RemoteReadRequests.matchers(request.getQueries(q), q);
      } catch (IllegalArgumentException refused) {
        Findings.explained(refused);
      }
    }
  }
}
