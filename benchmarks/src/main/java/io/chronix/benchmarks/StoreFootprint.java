package io.chronix.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Everything a stopped server keeps under its data directory, as a peer's whole data directory is
 * counted: the total and its split into the Solr index, Solr's transaction log, our write-ahead log
 * and the rest (solr.xml, the configset, core properties).
 */
public record StoreFootprint(long total, Map<String, Long> split) {

  public static StoreFootprint of(Path dataDir, String collection) throws IOException {
    Path data = dataDir.resolve("solr").resolve(collection).resolve("data");
    Path index = data.resolve("index");
    Path tlog = data.resolve("tlog");
    Path wal = dataDir.resolve("wal");
    Map<String, Long> split = new LinkedHashMap<>();
    split.put("index", 0L);
    split.put("solr tlog", 0L);
    split.put("wal", 0L);
    split.put("other", 0L);
    long total = 0;
    try (Stream<Path> files = Files.walk(dataDir)) {
      for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        long bytes = Files.size(file);
        total += bytes;
        String kind = file.startsWith(index) ? "index" : file.startsWith(tlog) ? "solr tlog"
            : file.startsWith(wal) ? "wal" : "other";
        split.merge(kind, bytes, Long::sum);
      }
    }
    return new StoreFootprint(total, split);
  }
}
