package io.chronix.ingest.tune;

import io.chronix.core.codec.Compression;
import io.chronix.core.codec.Compressions;
import io.chronix.core.csv.P4File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The tuner of the Chronix paper: reads training data, measures for every metric pattern how many
 * bytes a point costs with each chunk size and compression, and recommends the cheapest as
 * configuration the server loads ({@code chronix start --config <file>}).
 */
public final class Tuner {

  /** What the tuner tries. */
  public record Candidate(int chunkPoints, Compression compression) {
    public String label() {
      return compression.name().replaceAll(":\\d+$", "") + "/" + chunkPoints;
    }
  }

  /** One metric pattern's measurements, in the order of {@link #candidates()}. */
  public record Row(String pattern, int series, long points, List<Double> bytesPerPoint, Candidate best) {}

  private final List<Candidate> candidates;

  public Tuner(List<Candidate> candidates) {
    this.candidates = List.copyOf(candidates);
  }

  public static Tuner standard() {
    List<Candidate> candidates = new ArrayList<>();
    // zstd and xz are left out: for blobs a compressor has already packed, the estimate is
    // optimistic by about 0.1 bytes a point on P4 (docs/benchmarks.md), enough to recommend xz where
    // the store gains nothing and ingest and decoding lose
    for (Compression compression : List.of(Compressions.NONE, Compressions.GZIP)) {
      for (int points : new int[] {1024, 4096, 8192, 32768}) {
        candidates.add(new Candidate(points, compression));
      }
    }
    return new Tuner(candidates);
  }

  public List<Candidate> candidates() {
    return candidates;
  }

  /** Rows per pattern, then one row "*" for all series together (the global recommendation). */
  public List<Row> measure(List<P4File> training) {
    Map<String, List<P4File>> byPattern = new TreeMap<>();
    for (P4File file : training) {
      file.points().sortAndDeduplicate();
      byPattern.computeIfAbsent(pattern(file.key().name()), k -> new ArrayList<>()).add(file);
    }
    List<Row> rows = new ArrayList<>();
    for (Map.Entry<String, List<P4File>> group : byPattern.entrySet()) {
      rows.add(row(group.getKey(), group.getValue()));
    }
    rows.add(row("*", training));
    return rows;
  }

  private Row row(String pattern, List<P4File> series) {
    long points = series.stream().mapToLong(file -> file.points().size()).sum();
    List<Double> costs = new ArrayList<>();
    Candidate best = null;
    double bestCost = Double.MAX_VALUE;
    for (Candidate candidate : candidates) {
      double cost = (double) StorageEstimate.bytes(series, candidate.chunkPoints(), candidate.compression()) / Math.max(1, points);
      costs.add(cost);
      if (cost < bestCost) {
        bestCost = cost;
        best = candidate;
      }
    }
    return new Row(pattern, series.size(), points, costs, best);
  }

  /**
   * Metric patterns group names that differ only after their last separator ({@code /}, {@code \},
   * {@code .}): the attributes of one MBean, the fields of one measurement.
   */
  static String pattern(String name) {
    int cut = Math.max(name.lastIndexOf('/'), Math.max(name.lastIndexOf('\\'), name.lastIndexOf('.')));
    return cut <= 0 ? name : name.substring(0, cut + 1) + "*";
  }

  /**
   * The recommendation as server settings: the overall best as defaults, and a lossless rule for a
   * pattern only where it makes the whole training set smaller. Patterns are tried one at a time,
   * in context: records of different patterns share blocks (and timestamp streams), which an
   * estimate of the pattern alone cannot see.
   */
  public Map<String, String> recommendation(List<Row> rows, List<P4File> training) {
    Row all = rows.get(rows.size() - 1);
    Map<String, Candidate> chosen = new LinkedHashMap<>();
    long total = estimate(training, chosen, all.best());
    for (Row row : rows.subList(0, rows.size() - 1)) {
      if (row.best().equals(all.best())) {
        continue;
      }
      chosen.put(row.pattern(), row.best());
      long with = estimate(training, chosen, all.best());
      if (with < total * (1 - RULE_GAIN)) {
        total = with;
      } else {
        chosen.remove(row.pattern());
      }
    }
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("chunk.maxPoints", String.valueOf(all.best().chunkPoints()));
    settings.put("chunk.compression", all.best().compression().name());
    List<String> rules = new ArrayList<>();
    chosen.forEach((pattern, candidate) -> rules.add(pattern + " -> chunk=" + candidate.chunkPoints()
        + " compression=" + candidate.compression().name()));
    settings.put("semantic.rules", String.join(" | ", rules));
    return settings;
  }

  private static long estimate(List<P4File> training, Map<String, Candidate> rules, Candidate overall) {
    Map<Candidate, io.chronix.core.chunk.Chunker> chunkers = new java.util.HashMap<>();
    return StorageEstimate.bytes(training, file -> {
      Candidate candidate = rules.getOrDefault(pattern(file.key().name()), overall);
      return chunkers.computeIfAbsent(candidate, c -> new io.chronix.core.chunk.Chunker(c.chunkPoints(),
          new io.chronix.core.codec.ChunkCodec(c.compression(), 0)));
    });
  }

  /** A per-pattern rule must make the whole set at least this much smaller. */
  static final double RULE_GAIN = 0.005;

  /** Settings as a properties file the server reads with {@code --config}. */
  public static String properties(Map<String, String> settings, String comment) {
    StringBuilder file = new StringBuilder("# ").append(comment).append('\n');
    // properties files read a backslash as an escape: metric names with backslashes need theirs doubled
    settings.forEach((key, value) -> file.append(key).append('=').append(value.replace("\\", "\\\\")).append('\n'));
    return file.toString();
  }
}
