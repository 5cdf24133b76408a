package io.chronix.benchmarks.peers;

import io.chronix.benchmarks.Jmh;
import io.chronix.ingest.pipeline.IngestPipeline;
import io.chronix.ingest.protocol.influx.LineProtocolParser;
import io.chronix.ingest.wal.WriteAheadLog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;

/**
 * What a write request costs when every series in it is new: the first body of the 10,000-series
 * stream (1,000 lines of 10 fields) into an empty write path, warm and on one thread, as
 * {@link IngestPathBenchmark} measures a body of known series. In the quick peer comparison the
 * stream's first request, which creates all its series, took half of the load's time.
 *
 * <p>Run: {@code benchmarks/run peers.SeriesCreationBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SeriesCreationBenchmark {

  /** Not read: {@link Jmh#oneThread} passes every benchmark the input directory. */
  @Param("../shared/data/p4")
  public String input;

  private String firstBody;
  private int invocations;
  private byte[] body;
  private ScratchLog scratch;
  private WriteAheadLog log;
  private LineProtocolParser.SeriesCache cache;
  private IngestPipeline pipeline;

  @Setup(Level.Trial)
  public void prepare() throws IOException {
    firstBody = new String(Workloads.synthetic(1).bodies().get(0), StandardCharsets.UTF_8);
    scratch = new ScratchLog("chronix-series-creation");
    log = scratch.log();
  }

  /**
   * A body of hosts no invocation named before, and a parser's series cache, buffers and budget
   * that have seen none of its series; the log's cache of key encodings stays, as in a server.
   */
  @Setup(Level.Invocation)
  public void empty() throws IOException {
    body = firstBody.replace("host=h", "host=i" + invocations++ + "h").getBytes(StandardCharsets.UTF_8);
    cache = new LineProtocolParser.SeriesCache();
    pipeline = IngestPathBenchmark.pipeline(log);
    scratch.letGo(); // the last invocation's entries
  }

  @TearDown(Level.Trial)
  public void close() throws IOException {
    scratch.close();
  }

  /** The body parsed, checked, logged and buffered: ten thousand series made. */
  @Benchmark
  public int request() throws IOException {
    return IngestPathBenchmark.write(body, cache, pipeline);
  }

  public static void main(String[] args) throws Exception {
    var options = Jmh.oneThread(SeriesCreationBenchmark.class, args.length > 0 ? args[0] : "../shared/data/p4")
        .warmupIterations(5)
        .build();
    for (RunResult result : new Runner(options).run()) {
      double micros = result.getPrimaryResult().getScore();
      System.out.printf(Locale.ROOT, "%,.0f us a body of 10,000 new series (%.2f us a series, error %.1f%%)%n",
          micros, micros / 10_000, 100 * result.getPrimaryResult().getScoreError() / micros);
    }
  }
}
