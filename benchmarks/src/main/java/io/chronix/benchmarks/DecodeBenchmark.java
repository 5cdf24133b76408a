package io.chronix.benchmarks;

import io.chronix.core.chunk.Chunker;
import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.codec.Compressions;
import io.chronix.core.csv.P4CsvReader;
import io.chronix.core.csv.P4File;
import io.chronix.core.record.Record;
import io.chronix.core.series.Points;
import io.chronix.ingest.importer.CsvImporter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;

/**
 * Full-chunk decode speed on one core: every chunk of shared/data/p4 (8,192 points each, as the
 * server writes them) decoded from its blob, per compression. Reports points per second.
 *
 * <p>Run: {@code benchmarks/run DecodeBenchmark [<p4 dir>]}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class DecodeBenchmark {

  @Param({"none", "gzip"})
  public String compression;

  @Param("../shared/data/p4")
  public String input;

  private final List<byte[]> blobs = new ArrayList<>();
  private long points;

  @Setup(Level.Trial)
  public void encode() throws Exception {
    Chunker chunker = new Chunker(8192, new ChunkCodec(Compressions.byName(compression), 0));
    for (Path file : CsvImporter.expand(List.of(Path.of(input)))) {
      P4File series = new P4CsvReader().read(file);
      Points sorted = series.points();
      sorted.sortAndDeduplicate();
      for (Record record : chunker.chunk(series.key(), sorted)) {
        blobs.add(record.data());
        points += record.stats().count();
      }
    }
  }

  /** Decodes every chunk once. */
  @Benchmark
  public void decodeAll(Blackhole sink) {
    for (byte[] blob : blobs) {
      sink.consume(ChunkCodec.decode(blob));
    }
  }

  public static void main(String[] args) throws Exception {
    String input = args.length > 0 ? args[0] : "../shared/data/p4";
    DecodeBenchmark probe = new DecodeBenchmark();
    probe.compression = "none";
    probe.input = input;
    probe.encode();
    long pointsPerOp = probe.points;
    var options = Jmh.oneThread(DecodeBenchmark.class, input).build();
    for (RunResult result : new Runner(options).run()) {
      double opsPerSecond = result.getPrimaryResult().getScore();
      System.out.printf("decode %-5s %,.0f points/s on one thread (%,.1f ops/s of %,d points, error %.1f%%)%n",
          result.getParams().getParam("compression"), opsPerSecond * pointsPerOp, opsPerSecond, pointsPerOp,
          100 * result.getPrimaryResult().getScoreError() / opsPerSecond);
    }
  }
}
