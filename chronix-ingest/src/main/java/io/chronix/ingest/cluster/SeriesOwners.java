package io.chronix.ingest.cluster;

import io.chronix.core.series.SeriesKey;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Which ingest node owns a series: rendezvous (highest random weight) hashing of the series over
 * the live nodes. Every node computes the same owner from the same member list, and when a node
 * leaves only its series move (each to the node with its next highest weight); when one joins it
 * takes about 1/n of every other node's series.
 */
public final class SeriesOwners {

  private final List<String> members;
  private final long[] memberHashes;

  /** @param members the live nodes' ids (their base URLs), in any order; at least one */
  public SeriesOwners(List<String> members) {
    if (members.isEmpty()) {
      throw new IllegalArgumentException("no ingest node to own series");
    }
    this.members = List.copyOf(members);
    this.memberHashes = new long[members.size()];
    for (int i = 0; i < memberHashes.length; i++) {
      memberHashes[i] = hash(members.get(i));
    }
  }

  public String ownerOf(SeriesKey key) {
    long series = mix(key.hashCode() * 0x9E3779B97F4A7C15L);
    int best = 0;
    long bestWeight = Long.MIN_VALUE;
    for (int i = 0; i < memberHashes.length; i++) {
      long weight = mix(series ^ memberHashes[i]);
      // ties (astronomically rare) go to the smaller id, the same on every node
      if (weight > bestWeight || (weight == bestWeight && members.get(i).compareTo(members.get(best)) < 0)) {
        best = i;
        bestWeight = weight;
      }
    }
    return members.get(best);
  }

  public List<String> members() {
    return members;
  }

  private static long hash(String id) {
    long h = 0xCBF29CE484222325L; // FNV-1a over the id's bytes, then mixed
    for (byte b : id.getBytes(StandardCharsets.UTF_8)) {
      h = (h ^ (b & 0xFF)) * 0x100000001B3L;
    }
    return mix(h);
  }

  /** The finalizer of SplitMix64: every input bit affects every output bit. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
