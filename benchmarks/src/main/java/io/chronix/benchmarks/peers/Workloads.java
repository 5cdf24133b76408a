package io.chronix.benchmarks.peers;

import io.chronix.core.csv.P4CsvReader;
import io.chronix.core.csv.P4File;
import io.chronix.core.series.Points;
import io.chronix.ingest.importer.CsvImporter;
import io.chronix.ingest.protocol.influx.LineProtocolWriter;
import io.chronix.ingest.protocol.prometheus.proto.Label;
import io.chronix.ingest.protocol.prometheus.proto.Sample;
import io.chronix.ingest.protocol.prometheus.proto.TimeSeries;
import io.chronix.ingest.protocol.prometheus.proto.WriteRequest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import org.xerial.snappy.Snappy;

/**
 * The data of the comparison, read and rendered once: P4's files as line protocol and as remote
 * write (in file order, as a bulk load sends them), the series they form (P4 splits some series
 * over several files), and a synthetic stream of 10,000 series.
 */
final class Workloads {

  static final int LINES_PER_REQUEST = 10_000;
  private static final String LINE_PROTOCOL = "text/plain; charset=utf-8";

  final List<SeriesRef> series;
  final IngestLoad p4LineProtocol;
  final IngestLoad p4RemoteWrite;
  final IngestLoad synthetic;
  /** P4 as line protocol once more, as new series (tag {@code load=again}), into a warmed-up server. */
  final IngestLoad p4Again;

  private Workloads(List<SeriesRef> series, IngestLoad p4LineProtocol, IngestLoad p4RemoteWrite, IngestLoad synthetic,
      IngestLoad p4Again) {
    this.series = series;
    this.p4LineProtocol = p4LineProtocol;
    this.p4RemoteWrite = p4RemoteWrite;
    this.synthetic = synthetic;
    this.p4Again = p4Again;
  }

  static Workloads prepare(Path input, int syntheticRounds) throws IOException {
    List<Path> paths = CsvImporter.expand(List.of(input));
    List<P4File> files = read(paths);
    long csvBytes = csvBytes(paths);
    return new Workloads(series(files), lineProtocol(files, csvBytes, ""), remoteWrite(files, csvBytes),
        synthetic(syntheticRounds), lineProtocol(files, csvBytes, ",load=again"));
  }

  /**
   * P4 as line protocol alone, for a benchmark of that one load: the other forms beside it did not
   * always fit the measuring JVM's heap of the launcher's size (384m).
   */
  static IngestLoad p4LineProtocol(Path input) throws IOException {
    List<Path> paths = CsvImporter.expand(List.of(input));
    return lineProtocol(read(paths), csvBytes(paths), "");
  }

  private static List<P4File> read(List<Path> paths) throws IOException {
    List<P4File> files = new ArrayList<>();
    for (Path file : paths) {
      files.add(new P4CsvReader(ZoneOffset.UTC).read(file));
    }
    return files;
  }

  private static long csvBytes(List<Path> paths) throws IOException {
    long bytes = 0;
    for (Path file : paths) {
      bytes += uncompressedBytes(file);
    }
    return bytes;
  }

  private static List<SeriesRef> series(List<P4File> files) {
    Map<String, long[]> spans = new LinkedHashMap<>();
    Map<String, P4File> firstFile = new LinkedHashMap<>();
    for (P4File file : files) {
      Points points = file.points();
      if (points.size() == 0) {
        continue;
      }
      String id = file.key().name() + new TreeMap<>(file.key().attributes());
      firstFile.putIfAbsent(id, file);
      long first = Long.MAX_VALUE;
      long last = Long.MIN_VALUE;
      for (int i = 0; i < points.size(); i++) {
        first = Math.min(first, points.timestamp(i) / 1_000_000L);
        last = Math.max(last, points.timestamp(i) / 1_000_000L);
      }
      long[] span = spans.computeIfAbsent(id, k -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE});
      span[0] = Math.min(span[0], first);
      span[1] = Math.max(span[1], last);
    }
    List<SeriesRef> out = new ArrayList<>();
    spans.forEach((id, span) -> {
      P4File file = firstFile.get(id);
      out.add(SeriesRef.of(file.key().name(), file.key().attributes(), span[0], span[1]));
    });
    return out;
  }

  private static IngestLoad lineProtocol(List<P4File> files, long csvBytes, String extraTag) {
    List<byte[]> bodies = new ArrayList<>();
    StringBuilder body = new StringBuilder(LINES_PER_REQUEST * 160);
    int lines = 0;
    long values = 0;
    for (P4File file : files) {
      String prefix = LineProtocolWriter.seriesPrefix(file.key()) + extraTag;
      Points points = file.points();
      for (int i = 0; i < points.size(); i++) {
        LineProtocolWriter.appendPoint(prefix, points.timestamp(i), points.value(i), body);
        values++;
        if (++lines == LINES_PER_REQUEST) {
          bodies.add(body.toString().getBytes(StandardCharsets.UTF_8));
          body.setLength(0);
          lines = 0;
        }
      }
    }
    if (lines > 0) {
      bodies.add(body.toString().getBytes(StandardCharsets.UTF_8));
    }
    return new IngestLoad(extraTag.isEmpty() ? "P4 line protocol" : "P4 line protocol again", bodies, values, csvBytes,
        LINE_PROTOCOL, null);
  }

  /**
   * P4 again as Prometheus remote write (snappy protobuf, 10,000 samples a request), with the label
   * {@code load="remote_write"} so that these are new series next to the line-protocol ones.
   */
  private static IngestLoad remoteWrite(List<P4File> files, long csvBytes) throws IOException {
    List<byte[]> bodies = new ArrayList<>();
    WriteRequest.Builder request = WriteRequest.newBuilder();
    int samples = 0;
    long values = 0;
    for (P4File file : files) {
      TreeMap<String, String> labels = new TreeMap<>(file.key().attributes());
      labels.put("__name__", file.key().name());
      labels.put("load", "remote_write");
      Points points = file.points();
      int from = 0;
      while (from < points.size()) {
        int to = Math.min(points.size(), from + LINES_PER_REQUEST - samples);
        TimeSeries.Builder part = TimeSeries.newBuilder();
        labels.forEach((name, value) -> part.addLabels(Label.newBuilder().setName(name).setValue(value)));
        for (int i = from; i < to; i++) {
          part.addSamples(Sample.newBuilder().setTimestamp(points.timestamp(i) / 1_000_000L).setValue(points.value(i)));
        }
        request.addTimeseries(part);
        samples += to - from;
        values += to - from;
        from = to;
        if (samples == LINES_PER_REQUEST) {
          bodies.add(Snappy.compress(request.build().toByteArray()));
          request = WriteRequest.newBuilder();
          samples = 0;
        }
      }
    }
    if (samples > 0) {
      bodies.add(Snappy.compress(request.build().toByteArray()));
    }
    return new IngestLoad("P4 remote write", bodies, values, csvBytes, "application/x-protobuf", "snappy");
  }

  /**
   * 10,000 series (1,000 hosts in 4 data centres, 10 fields a line), one point per series and
   * round, 10 s apart: a request per round, as a fleet of collectors sends it.
   */
  static IngestLoad synthetic(int rounds) {
    List<byte[]> bodies = new ArrayList<>();
    long t0 = 1_700_000_000_000_000_000L;
    for (int r = 0; r < rounds; r++) {
      StringBuilder body = new StringBuilder(1000 * 200);
      for (int host = 0; host < 1000; host++) {
        body.append("node,host=h").append(host).append(",dc=dc").append(host % 4);
        for (int metric = 0; metric < 10; metric++) {
          body.append(metric == 0 ? ' ' : ',').append('m').append(metric).append('=')
              .append((r * 7 + host * 13 + metric * 31) % 1000 / 10.0);
        }
        body.append(' ').append(t0 + r * 10_000_000_000L + host * 1_000_000L).append('\n');
      }
      bodies.add(body.toString().getBytes(StandardCharsets.UTF_8));
    }
    return new IngestLoad("10,000-series stream", bodies, 10_000L * rounds, 0, LINE_PROTOCOL, null);
  }

  private static long uncompressedBytes(Path file) throws IOException {
    try (InputStream in = file.toString().endsWith(".gz") ? new GZIPInputStream(Files.newInputStream(file))
        : Files.newInputStream(file)) {
      return in.transferTo(java.io.OutputStream.nullOutputStream());
    }
  }
}
