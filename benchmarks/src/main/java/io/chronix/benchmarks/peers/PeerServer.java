package io.chronix.benchmarks.peers;

import io.chronix.analysis.Analysis;
import io.chronix.analysis.Functions;
import io.chronix.core.series.Points;
import java.net.URI;
import java.nio.file.Path;

/**
 * A running server under comparison. Writes go through the same client for all (line protocol and
 * remote write bodies prepared once); queries through each server's own native query path, each
 * timed by the caller from sending to the parsed answer.
 */
interface PeerServer extends AutoCloseable {

  String name();

  long pid();

  Path dataDir();

  /** The InfluxDB line protocol endpoint, nanosecond timestamps. */
  URI lineProtocolWrite();

  /** The Prometheus remote write endpoint. */
  URI remoteWrite();

  /** Makes every acknowledged point durable and queryable (timed by the caller). */
  void flush() throws Exception;

  /** The clean stop, after which the data directory is complete. */
  void stop() throws Exception;

  /** The server's liveness endpoint, answered without touching the data: one HTTP round trip. */
  void ping() throws Exception;

  /** The points of a series within [from, to] (milliseconds, both inclusive), in time order. */
  Points raw(SeriesRef series, long from, long to) throws Exception;

  /** The largest value of a series within [from, to]. */
  double max(SeriesRef series, long from, long to) throws Exception;

  /**
   * Whether an analysis ({@code outlier}, {@code trend}) holds for the series within [from, to].
   * A peer without server-side analyses fetches the points and runs our analysis code in the
   * client: what a user of that peer has to do.
   */
  default boolean analysis(String function, SeriesRef series, long from, long to) throws Exception {
    Points points = raw(series, from, to);
    return ((Analysis) Functions.parse(function)).apply(points, reference -> null).matches();
  }
}
