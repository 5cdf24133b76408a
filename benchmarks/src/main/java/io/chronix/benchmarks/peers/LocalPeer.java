package io.chronix.benchmarks.peers;

import java.nio.file.Path;

/** A peer running as a local process: what identifies it in the comparison and where its data lies. */
abstract class LocalPeer implements PeerServer {

  private final String name;
  private final long pid;
  private final Path dataDir;

  LocalPeer(String name, long pid, Path dataDir) {
    this.name = name;
    this.pid = pid;
    this.dataDir = dataDir;
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final long pid() {
    return pid;
  }

  @Override
  public final Path dataDir() {
    return dataDir;
  }
}
