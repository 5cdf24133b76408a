package io.chronix.benchmarks.peers;

import io.chronix.benchmarks.ChronixProcess;
import java.net.URI;
import java.nio.file.Path;

/**
 * Our server, started by the launcher with its defaults ({@link ChronixProcess}), queried through
 * the Chronix query handler: raw points with {@code fl=points}, the maximum and the analyses
 * with {@code cf=} next to the data.
 */
final class ChronixPeer extends LocalPeer implements ChronixQueryServer {

  private final ChronixProcess process;
  private final ChronixQueries queries;

  private ChronixPeer(ChronixProcess process, Path dataDir) {
    super("Chronix", process.pid(), dataDir);
    this.process = process;
    this.queries = new ChronixQueries(process.base());
  }

  static ChronixPeer start(Path dataDir, Path log, String... settings) throws Exception {
    return start(Path.of("."), null, dataDir, log, settings);
  }

  /** Our server as built in another checkout (its launcher and jar), with its own JVM options unless null. */
  static ChronixPeer start(Path checkout, String javaOptions, Path dataDir, Path log, String... settings)
      throws Exception {
    return new ChronixPeer(ChronixProcess.start(checkout, javaOptions, dataDir, log, settings), dataDir);
  }

  @Override
  public URI lineProtocolWrite() {
    return process.base().resolve("/write");
  }

  @Override
  public URI remoteWrite() {
    return process.base().resolve("/api/v1/write");
  }

  @Override
  public void flush() throws Exception {
    Http.post(process.base().resolve("/flush"), "");
  }

  @Override
  public void stop() throws Exception {
    process.stop();
  }

  @Override
  public void close() throws Exception {
    process.close();
  }

  @Override
  public ChronixQueries queries() {
    return queries;
  }
}
