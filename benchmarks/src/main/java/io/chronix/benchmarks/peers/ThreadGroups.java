package io.chronix.benchmarks.peers;

import java.util.Map;
import java.util.TreeMap;

/** What a JVM's threads do, read from their names (digits replaced by N, as ProcessStats reports them). */
final class ThreadGroups {

  static final String INGEST = "ingest nodes' request threads (parse, log, buffer, forward)";
  static final String CHUNKS = "ingest nodes' chunk writers";
  static final String SOLR = "Solr nodes' request threads (indexing, queries)";
  static final String SOLR_BACKGROUND = "Solr commits, merges, ZooKeeper";
  static final String JIT = "JIT compiler";
  static final String GC = "garbage collector";
  static final String LOAD_CLIENT = "load client";
  static final String OTHER = "other";

  private ThreadGroups() {}

  /** CPU seconds spent between two readings, by what the threads do (their names say it). */
  static Map<String, Double> byGroup(Map<String, Double> before, Map<String, Double> after) {
    Map<String, Double> groups = new TreeMap<>();
    after.forEach((thread, seconds) -> {
      double spent = seconds - before.getOrDefault(thread, 0.0);
      if (spent > 0) {
        groups.merge(group(thread), spent, Double::sum);
      }
    });
    return groups;
  }

  static String group(String thread) {
    if (thread.startsWith("chronix-http")) {
      return INGEST;
    }
    if (thread.startsWith("chronix-")) {
      return CHUNKS;
    }
    if (thread.startsWith("qtp") || thread.startsWith("h2sc") || thread.startsWith("httpShardExecutor")) {
      return SOLR;
    }
    if (thread.contains("ompiler")) {
      return JIT;
    }
    if (thread.startsWith("GC ") || thread.startsWith("G1") || thread.equals("VM Thread")) {
      return GC;
    }
    if (thread.startsWith("pool-") || thread.startsWith("HttpClient")) {
      return LOAD_CLIENT;
    }
    if (thread.contains("commit") || thread.contains("Merge") || thread.contains("searcher")
        || thread.contains("update") || thread.contains("zk") || thread.contains("Zk") || thread.contains("NIO")) {
      return SOLR_BACKGROUND;
    }
    return OTHER;
  }
}
