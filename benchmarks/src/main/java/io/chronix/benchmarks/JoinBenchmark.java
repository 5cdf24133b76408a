package io.chronix.benchmarks;

import io.chronix.core.csv.P4CsvReader;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesMerge;
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
 * The query's join of a series' decoded records on one core, for every file of shared/data/p4:
 * {@code disjoint}, the series cut into records one after the other; {@code overlapping}, the
 * series split into two records whose spans interleave in blocks of 1,000 points, as when two
 * clients send a series' files at once and the buffer is cut between their requests. Reports
 * points per second.
 *
 * <p>Run: {@code benchmarks/run JoinBenchmark [<p4 dir>]}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class JoinBenchmark {

  private static final int BLOCK = 1_000;

  @Param({"disjoint", "overlapping"})
  public String records;

  @Param("../shared/data/p4")
  public String input;

  private final List<List<Points>> series = new ArrayList<>();
  private long points;

  @Setup(Level.Trial)
  public void cut() throws Exception {
    for (Path file : CsvImporter.expand(List.of(Path.of(input)))) {
      Points sorted = new P4CsvReader().read(file).points();
      sorted.sortAndDeduplicate();
      Points first = new Points(sorted.size());
      Points second = new Points(sorted.size());
      int half = sorted.size() / 2;
      for (int i = 0; i < sorted.size(); i++) {
        boolean toFirst = records.equals("disjoint") ? i < half : (i / BLOCK) % 2 == 0;
        (toFirst ? first : second).add(sorted.timestamp(i), sorted.value(i));
      }
      series.add(List.of(first, second));
      points += sorted.size();
    }
  }

  /** Joins every series' records once. */
  @Benchmark
  public void joinAll(Blackhole sink) {
    for (List<Points> records : series) {
      sink.consume(SeriesMerge.merge(records));
    }
  }

  public static void main(String[] args) throws Exception {
    String input = args.length > 0 ? args[0] : "../shared/data/p4";
    JoinBenchmark probe = new JoinBenchmark();
    probe.records = "disjoint";
    probe.input = input;
    probe.cut();
    var options = Jmh.oneThread(JoinBenchmark.class, input).build();
    for (RunResult result : new Runner(options).run()) {
      double opsPerSecond = result.getPrimaryResult().getScore();
      System.out.printf("join %-11s %,.0f points/s on one thread (error %.1f%%)%n",
          result.getParams().getParam("records"), opsPerSecond * probe.points,
          100 * result.getPrimaryResult().getScoreError() / opsPerSecond);
    }
  }
}
