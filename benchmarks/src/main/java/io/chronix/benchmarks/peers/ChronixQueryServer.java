package io.chronix.benchmarks.peers;

import io.chronix.core.series.Points;

/** A server of ours in a comparison: its queries go to the Chronix query handler ({@link ChronixQueries}). */
interface ChronixQueryServer extends PeerServer {

  ChronixQueries queries();

  @Override
  default void ping() throws Exception {
    queries().ping();
  }

  @Override
  default Points raw(SeriesRef series, long from, long to) throws Exception {
    return queries().raw(series, from, to);
  }

  @Override
  default double max(SeriesRef series, long from, long to) throws Exception {
    return queries().max(series, from, to);
  }

  @Override
  default boolean analysis(String function, SeriesRef series, long from, long to) throws Exception {
    return queries().analysis(function, series, from, to);
  }
}
