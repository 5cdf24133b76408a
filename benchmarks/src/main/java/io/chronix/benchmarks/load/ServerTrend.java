package io.chronix.benchmarks.load;

import io.chronix.benchmarks.load.ServerSampler.Sample;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The server samples of the injection as a trend, because a load that the server only survives by
 * accumulating (heap, buffers, resident memory) fails later than any run shows. Growth is the mean
 * of the last third of the samples against the middle third (the first third is the server
 * filling its buffers and warming up); more than {@link #GROWTH_TOLERANCE} more counts.
 */
final class ServerTrend {

  static final double GROWTH_TOLERANCE = 0.10;

  private final List<Sample> samples;

  /** The samples taken from {@code fromMillis} for {@code seconds}, the injection. */
  ServerTrend(List<Sample> all, long fromMillis, long seconds) {
    long toMillis = fromMillis + seconds * 1000;
    this.samples = all.stream().filter(s -> s.epochMillis() >= fromMillis && s.epochMillis() <= toMillis).toList();
  }

  String markdown() {
    StringBuilder out = new StringBuilder();
    out.append("| server (").append(samples.size())
        .append(" samples) | first | last | max | mean, middle third | mean, last third |\n");
    out.append("|---|---|---|---|---|---|\n");
    row(out, "heap used (MB)", s -> s.heapUsed() / 1e6);
    row(out, "heap after last GC (MB)", s -> s.heapAfterGc() / 1e6);
    row(out, "buffered bytes (MB)", s -> s.bufferBytes() / 1e6);
    row(out, "buffered points (M)", s -> s.bufferPoints() / 1e6);
    row(out, "active series", s -> s.activeSeries());
    row(out, "RSS (MB)", s -> s.rssBytes() / 1e6);
    if (samples.size() > 1) {
      Sample first = samples.get(0);
      Sample last = samples.get(samples.size() - 1);
      double wall = (last.epochMillis() - first.epochMillis()) / 1000.0;
      double server = last.cpuSeconds() - first.cpuSeconds();
      double client = last.clientCpuSeconds() - first.clientCpuSeconds();
      out.append(String.format(Locale.ROOT, "%nCPU over %.0f s of injection: server %.1f s (%.2f cores),"
          + " load generator (Gatling, same machine) %.1f s (%.2f cores).%n", wall, server, server / wall, client,
          client / wall));
      out.append(collections());
    }
    return out.toString();
  }

  /**
   * The server's collections over the injection and over its last third, where the buffers are
   * full and the load steady: how often the server stopped, and how long on average, beside the
   * latencies a stop lengthens.
   */
  String collections() {
    return "Collector: " + collections(samples) + "; in the last third " + collections(third(2)) + ".\n";
  }

  private static String collections(List<Sample> span) {
    List<Sample> known = span.stream().filter(s -> s.collections().known()).toList();
    if (known.size() < 2) {
      return "not measured";
    }
    Sample first = known.get(0);
    Sample last = known.get(known.size() - 1);
    long count = last.collections().count() - first.collections().count();
    long millis = last.collections().millis() - first.collections().millis();
    double wallMillis = last.epochMillis() - first.epochMillis();
    if (count == 0) {
      return String.format(Locale.ROOT, "no collection in %.0f s", wallMillis / 1000);
    }
    return String.format(Locale.ROOT, "%,d collections, %,d ms in all (%.1f %% of %.0f s), %.1f ms each on average",
        count, millis, 100 * millis / wallMillis, wallMillis / 1000, (double) millis / count);
  }

  /** The growth verdict of heap after GC, buffered bytes and RSS. */
  String growth() {
    return growth("heap after GC", Sample::heapAfterGc) + ", " + growth("buffered bytes", Sample::bufferBytes)
        + ", " + growth("RSS", Sample::rssBytes);
  }

  private String growth(String name, ToDoubleFunction<Sample> value) {
    double middle = third(value, 1);
    double last = third(value, 2);
    if (!(middle > 0) || Double.isNaN(last)) {
      return name + " not measured";
    }
    double change = last / middle - 1;
    return String.format(Locale.ROOT, "%s %s (%+.0f%%)", name, change > GROWTH_TOLERANCE ? "GROWS" : "flat",
        change * 100);
  }

  private void row(StringBuilder out, String name, ToDoubleFunction<Sample> value) {
    if (samples.isEmpty()) {
      return;
    }
    out.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s |%n", name,
        number(value.applyAsDouble(samples.get(0))), number(value.applyAsDouble(samples.get(samples.size() - 1))),
        number(samples.stream().mapToDouble(value).max().orElse(Double.NaN)), number(third(value, 1)),
        number(third(value, 2))));
  }

  /** Mean over the given third (0, 1, 2) of the samples, skipping readings that could not be taken. */
  private double third(ToDoubleFunction<Sample> value, int third) {
    return third(third).stream().mapToDouble(value).filter(v -> v >= 0).average().orElse(Double.NaN);
  }

  /** The given third (0, 1, 2) of the samples; the last one ends with the last sample. */
  private List<Sample> third(int third) {
    return samples.subList(samples.size() * third / 3, samples.size() * (third + 1) / 3);
  }

  private static String number(double value) {
    if (Double.isNaN(value) || value < 0) {
      return "n/a";
    }
    return value >= 100 ? String.format(Locale.ROOT, "%,.0f", value) : String.format(Locale.ROOT, "%.1f", value);
  }
}
