package io.chronix.ingest.transfer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.series.Points;
import io.chronix.ingest.pipeline.PointBatch;
import io.chronix.ingest.protocol.LineError;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** What the export writes reads back as the same bits, in the forms VictoriaMetrics and Prometheus print. */
class JsonLinesWriterTest {

  private static final long T0 = 1_700_000_000_000_000_000L;

  @Test
  void numbersArePlainWhereShortAndExactElse() throws Exception {
    double[] values = {42_817_864, 0.25, 0.1, -3.5, 123_456.789012, 1e300, 1e-7, 0.0, -0.0, Double.NaN,
        Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, 1e15, 0.1 + 0.2};
    long[] timestamps = new long[values.length];
    for (int i = 0; i < values.length; i++) {
      timestamps[i] = T0 + i * 1_000_000L + 999_999L; // rounded down to the millisecond
    }
    String line = write(Labels.of("__name__", "m", "host", "a"), Points.wrap(timestamps, values, values.length));
    assertEquals("{\"metric\":{\"__name__\":\"m\",\"host\":\"a\"},\"values\":[42817864,0.25,0.1,-3.5,123456.789012,"
        + "1.0E300,1.0E-7,0,-0.0,NaN,Infinity,-Infinity,4.9E-324,1.0E15,0.30000000000000004],\"timestamps\":["
        + "1700000000000,1700000000001,1700000000002,1700000000003,1700000000004,1700000000005,1700000000006,"
        + "1700000000007,1700000000008,1700000000009,1700000000010,1700000000011,1700000000012,1700000000013,"
        + "1700000000014]}\n", line);

    long[] longs = {Long.MIN_VALUE, -1, 0, 7, Long.MAX_VALUE};
    String integers = write(Labels.of("__name__", "n"), Points.wrapLongs(new long[] {1_000_000, 2_000_000, 3_000_000,
        4_000_000, 5_000_000}, longs, 5));
    assertEquals("{\"metric\":{\"__name__\":\"n\"},\"values\":[-9223372036854775808,-1,0,7,9223372036854775807],"
        + "\"timestamps\":[1,2,3,4,5]}\n", integers);
  }

  @Test
  void everyDoubleReadsBackBitForBitAcrossTheWritersBuffer() throws Exception {
    Random random = new Random(11);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int series = 40;
    int perSeries = 5_000; // far more text than the writer's buffer: numbers split across its flushes
    double[][] written = new double[series][perSeries];
    try (JsonLinesWriter writer = new JsonLinesWriter(bytes)) {
      for (int s = 0; s < series; s++) {
        long[] timestamps = new long[perSeries];
        for (int i = 0; i < perSeries; i++) {
          timestamps[i] = T0 + i * 1_000_000L;
          written[s][i] = anyDouble(random);
        }
        writer.write(Labels.of("__name__", "s" + s), Points.wrap(timestamps, written[s], perSeries));
      }
    }
    String text = bytes.toString(StandardCharsets.UTF_8);
    ObjectMapper json = JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();
    for (String line : text.split("\n")) {
      json.readTree(line); // each line is JSON of its own
    }
    PointBatch batch = new PointBatch();
    List<LineError> errors = new JsonLinesReader().parse(text, batch).errors();
    assertEquals(List.of(), errors);
    assertEquals(series * perSeries, batch.size());
    for (int p = 0; p < batch.size(); p++) {
      int s = Integer.parseInt(batch.key(p).name().substring(1));
      int i = (int) ((batch.timestamp(p) - T0) / 1_000_000L);
      assertEquals(Double.doubleToRawLongBits(written[s][i]), Double.doubleToRawLongBits(batch.value(p)),
          () -> "series " + s + " point " + i + ": " + written[s][i]);
    }
  }

  /**
   * A series goes to the stream only when the export asks (a page at a time, then as an HTTP
   * chunk), not at every run of numbers the writer hands on; {@code flush} passes it all through.
   */
  @Test
  void theStreamIsFlushedWhenAskedOnly() throws Exception {
    ByteArrayOutputStream sent = new ByteArrayOutputStream();
    BufferedOutputStream stream = new BufferedOutputStream(sent, 1 << 20);
    int n = 3_000; // more numbers than the writer's buffer holds: it hands them on several times
    long[] timestamps = new long[n];
    double[] values = new double[n];
    for (int i = 0; i < n; i++) {
      timestamps[i] = T0 + i * 1_000_000L;
      values[i] = i * 0.25;
    }
    try (JsonLinesWriter writer = new JsonLinesWriter(stream)) {
      writer.write(Labels.of("__name__", "m"), Points.wrap(timestamps, values, n));
      assertEquals(0, sent.size(), "nothing sent before the writer is flushed");
      writer.flush();
      String line = sent.toString(StandardCharsets.UTF_8);
      assertTrue(line.endsWith("1700000002999]}\n"), line.substring(Math.max(0, line.length() - 40)));
    }
  }

  /** Any bit pattern (but NaN payloads), whole numbers, short decimals, and their edges. */
  private static double anyDouble(Random random) {
    return switch (random.nextInt(10)) {
      case 0 -> Double.longBitsToDouble(random.nextLong() & 0xffefffffffffffffL); // finite, any sign
      case 1 -> canonicalNaN(Double.longBitsToDouble(random.nextLong())); // infinities too
      case 2 -> (double) (random.nextLong() % 1_000_000_000_000_000L); // whole, around 10^15
      case 3 -> random.nextInt(2_000_001) - 1_000_000;
      case 4 -> Math.round(random.nextGaussian() * 1e7) / Math.pow(10, 1 + random.nextInt(6));
      case 5 -> (random.nextBoolean() ? 1 : -1) * (2_251_799_813.0 + random.nextGaussian() * 10); // the short form's limit
      case 6 -> random.nextDouble() * Math.pow(10, random.nextInt(40) - 20);
      case 7 -> random.nextBoolean() ? -0.0 : 0.0;
      case 8 -> new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE,
          -Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_NORMAL}[random.nextInt(8)];
      default -> Math.round(random.nextDouble() * 100_000) / 100.0;
    };
  }

  /** The format has one NaN: a payload is not kept. */
  private static double canonicalNaN(double value) {
    return Double.isNaN(value) ? Double.NaN : value;
  }

  private static String write(Labels labels, Points points) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (JsonLinesWriter writer = new JsonLinesWriter(bytes)) {
      writer.write(labels, points);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
