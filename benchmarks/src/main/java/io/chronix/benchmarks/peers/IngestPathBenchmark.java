package io.chronix.benchmarks.peers;

import io.chronix.benchmarks.Jmh;
import io.chronix.core.series.Precision;
import io.chronix.ingest.buffer.SeriesBuffers;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.pipeline.BatchPool;
import io.chronix.ingest.pipeline.IngestPipeline;
import io.chronix.ingest.pipeline.PointBatch;
import io.chronix.ingest.protocol.influx.LineProtocolParser;
import io.chronix.ingest.protocol.influx.LineProtocolServlet;
import io.chronix.ingest.wal.SegmentLedger;
import io.chronix.ingest.wal.WriteAheadLog;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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
 * What a write request's thread does with a line-protocol body, warm and on one thread, without
 * HTTP, the store or other servers: parse it into a batch, log it (no fsync: the disk is not what
 * this measures), put it into the buffers, through the server's write path with its budget check
 * ({@code IngestPipeline}). The comparison's loads (the 10,000-series stream, P4)
 * as bodies. A steadier measure of the ingest path's own cost than the peer comparison, whose
 * figures include a fresh JVM's compiling and this shared machine's noise.
 *
 * <p>Run: {@code benchmarks/run peers.IngestPathBenchmark [<p4 dir>]}; with {@code INGEST_PATH_JFR=<file>} the
 * measuring JVM records a flight recording into that file; {@code INGEST_PATH_LOADS=stream} measures
 * one load only.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class IngestPathBenchmark {

  private static final int CHUNK_POINTS = ServerConfig.defaults().chunkMaxPoints();

  @Param({"stream", "p4"})
  public String load;

  @Param("../shared/data/p4")
  public String input;

  private List<byte[]> bodies;
  private int next;
  private LineProtocolParser.SeriesCache cache;
  private ScratchLog scratch;
  private WriteAheadLog log;
  private IngestPipeline pipeline;
  /** The pass's buffers, which its pipeline fills. */
  SeriesBuffers buffers;

  @Setup(Level.Trial)
  public void prepare() throws IOException {
    // the one load measured, not all of the comparison's forms: the measuring JVM has the launcher's heap
    bodies = load(load, input).bodies();
    scratch = new ScratchLog("chronix-ingest-path");
    log = scratch.log();
  }

  /** P4, or the comparison's stream, whose rounds carry each series' timestamps on by 10 s. */
  private static IngestLoad load(String load, String input) throws IOException {
    return load.equals("p4") ? Workloads.p4LineProtocol(Path.of(input))
        : Workloads.synthetic(PeerComparison.Plan.of(false).syntheticRounds());
  }

  /**
   * Each pass over the bodies starts with a parser's series cache and buffers that have seen none
   * of their series, as the comparison sends a load to a server that has not had it. Sent again
   * into the same buffers, the bodies' timestamps came a second time, and the stream's 10,000
   * series, capped at 1,024 points, filled and drained their buffers all in one request every
   * 1,024 requests, which the comparison's stream (300 points a series) never does
   * (docs/benchmarks.md). Outside the measured time; a body takes milliseconds, so a setup per
   * invocation adds nothing to the timing that counts.
   */
  @Setup(Level.Invocation)
  public void startPass() throws IOException {
    if (next == 0) {
      cache = new LineProtocolParser.SeriesCache();
      SegmentLedger ledger = new SegmentLedger();
      buffers = buffers(ledger);
      pipeline = pipeline(log, ledger, buffers);
      scratch.letGo(); // the last pass's entries
    }
  }

  /**
   * The server's write path over {@code log}: budget check, log, new buffers of the server's
   * default chunk size (no store behind them, no limits reached); full buffers go to a sink that
   * keeps nothing, as the chunk writer is another thread's work.
   */
  static IngestPipeline pipeline(WriteAheadLog log) {
    SegmentLedger ledger = new SegmentLedger();
    return pipeline(log, ledger, buffers(ledger));
  }

  private static SeriesBuffers buffers(SegmentLedger ledger) {
    return new SeriesBuffers(CHUNK_POINTS, Long.MAX_VALUE, Duration.ofHours(1), (key, points) -> points, Runnable::run,
        ledger);
  }

  private static IngestPipeline pipeline(WriteAheadLog log, SegmentLedger ledger, SeriesBuffers buffers) {
    return new IngestPipeline(log, ledger, buffers, () -> { }, Long.MAX_VALUE, Integer.MAX_VALUE, () -> { });
  }

  @TearDown(Level.Trial)
  public void close() throws IOException {
    scratch.close();
  }

  /** One request body: parsed, checked against the budget, logged, buffered. */
  @Benchmark
  public int request() throws IOException {
    byte[] body = bodies.get(next);
    next = next + 1 == bodies.size() ? 0 : next + 1;
    int points = write(body, cache, pipeline);
    log.deleteBefore(log.currentSegment()); // the store's checkpoint, which would let segments go, is not here
    return points;
  }

  /**
   * Batches kept from one request to the next, as the server's write endpoints keep them: a new
   * batch a body grew and rehashed its series table while it was filled, which the server's
   * requests do not (6 % of this benchmark's samples in a recording taken before its samples were
   * placed where they were taken, and none of the server's).
   */
  private static final BatchPool BATCHES = new BatchPool();

  /**
   * A line-protocol body parsed with the parser's series {@code cache} and written: its points.
   * The batch is taken and sized as the line-protocol endpoint takes and sizes it.
   */
  static int write(byte[] body, LineProtocolParser.SeriesCache cache, IngestPipeline pipeline) throws IOException {
    PointBatch batch = BATCHES.forBody(body.length);
    try {
      LineProtocolServlet.reserveFor(batch, body.length);
      new LineProtocolParser(Precision.NANOSECONDS, 0, cache).parse(body, 0, body.length, batch);
      pipeline.write(batch);
      return batch.size();
    } finally {
      BATCHES.give(batch);
    }
  }

  public static void main(String[] args) throws Exception {
    String input = args.length > 0 ? args[0] : "../shared/data/p4";
    var options = Jmh.oneThread(IngestPathBenchmark.class, input)
        .param("load", System.getenv().getOrDefault("INGEST_PATH_LOADS", "stream,p4").split(","))
        .warmupIterations(5)
        // INGEST_PATH_JFR=<file>: a flight recording of the measuring JVM, to see where the time goes;
        // its samples placed where they were taken, not at the nearest safepoint's method, which
        // named a slow path the parser never took (docs/benchmarks.md)
        .jvmArgsAppend(System.getenv("INGEST_PATH_JFR") == null ? Jmh.forkOptions()
            : Jmh.forkOptions("-XX:StartFlightRecording=settings=profile,filename=" + System.getenv("INGEST_PATH_JFR"),
                "-XX:+UnlockDiagnosticVMOptions", "-XX:+DebugNonSafepoints"))
        .build();
    for (RunResult result : new Runner(options).run()) {
      IngestLoad load = load(result.getParams().getParam("load"), input);
      double valuesPerBody = (double) load.values() / load.bodies().size();
      double micros = result.getPrimaryResult().getScore();
      System.out.printf(Locale.ROOT, "%-6s %,.0f values/s on one thread (%,.0f us a body of %,.0f values, error %.1f%%)%n",
          result.getParams().getParam("load"), valuesPerBody / micros * 1e6, micros, valuesPerBody,
          100 * result.getPrimaryResult().getScoreError() / micros);
    }
  }
}
