package io.chronix.ingest.metrics;

import io.chronix.analysis.promql.engine.RangeCache;
import io.chronix.core.record.RecordFields;
import io.chronix.ingest.Storage;
import io.chronix.ingest.compaction.Compactor;
import io.chronix.ingest.protocol.prometheus.SnappyLibraryDirectory;
import io.chronix.ingest.wal.WriteAheadLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.response.FieldStatsInfo;
import org.apache.solr.client.solrj.response.QueryResponse;

/**
 * The numbers an operator watches, read at the moment they are asked for: ingest per protocol,
 * buffers, write-ahead log, records and points stored, compactions, disk, logged problems. One
 * list of {@link Sample}s feeds both {@code /metrics} (Prometheus text) and the console's status
 * page, so the two always agree. Figures that need a Solr query or a walk over the data
 * directory are kept for {@link #SLOW_FIGURES_MILLIS} so that frequent scrapes cost little.
 */
public final class ServerMetrics {

  static final long SLOW_FIGURES_MILLIS = 10_000;

  /** One value of one metric. */
  public record Sample(String name, Kind kind, String help, Map<String, String> labels, double value) {}

  /** As Prometheus types them. */
  public enum Kind { COUNTER, GAUGE }

  private final Storage storage;
  private final IngestCounters ingest;
  private final RecentErrors errors;
  private final SolrClient solr;
  private final String collection;
  private final Path dataDir;
  /** Whether the data directory holds the index too (embedded Solr): then disk per point is known. */
  private final boolean indexInDataDir;
  private final LongSupplier clockMillis;
  private SlowFigures slow;
  /** The PromQL API's kept range answers, or null without. */
  private RangeCache rangeCache;

  private record SlowFigures(long takenMillis, long records, double storedPoints, long dataDirBytes) {}

  public ServerMetrics(Storage storage, IngestCounters ingest, RecentErrors errors, SolrClient solr, String collection,
      Path dataDir, boolean indexInDataDir, LongSupplier clockMillis) {
    this.storage = storage;
    this.ingest = ingest;
    this.errors = errors;
    this.solr = solr;
    this.collection = collection;
    this.dataDir = dataDir;
    this.indexInDataDir = indexInDataDir;
    this.clockMillis = clockMillis;
  }

  /** Reports how the PromQL API's range answers came about. */
  public ServerMetrics withRangeCache(RangeCache cache) {
    this.rangeCache = cache;
    return this;
  }

  public List<Sample> collect() throws IOException {
    List<Sample> samples = new ArrayList<>();
    for (Map.Entry<String, Long> protocol : ingest.snapshot().entrySet()) {
      samples.add(new Sample("chronix_ingested_points", Kind.COUNTER,
          "Points acknowledged since the start, by protocol", Map.of("protocol", protocol.getKey()),
          protocol.getValue()));
    }
    samples.add(gauge("chronix_buffered_points", "Points acknowledged but not yet written as records",
        storage.buffers().bufferedPoints()));
    samples.add(gauge("chronix_buffered_series", "Series with buffered points", storage.buffers().activeSeries()));
    samples.add(gauge("chronix_buffer_memory_bytes", "Memory the buffers hold", storage.buffers().memoryBytes()));
    WriteAheadLog.Footprint wal = storage.wal().footprint();
    samples.add(gauge("chronix_wal_bytes", "Size of the write-ahead log on disk", wal.bytes()));
    samples.add(gauge("chronix_wal_segments", "Segments of the write-ahead log", wal.segments()));
    samples.add(gauge("chronix_wal_failed", "1 while the write-ahead log refuses writes (see /status)",
        storage.wal().failure() == null ? 0 : 1));
    Compactor compactor = storage.compactor();
    Compactor.Result compacted = compactor.totals();
    samples.add(counter("chronix_compaction_runs", "Compaction runs finished", compactor.runs()));
    samples.add(counter("chronix_compaction_records_read", "Small records merged by compaction",
        compacted.recordsRead()));
    samples.add(counter("chronix_compaction_records_written", "Records compaction wrote in their place",
        compacted.recordsWritten()));
    SlowFigures figures = slowFigures();
    samples.add(gauge("chronix_records", "Records (chunks) in the collection", figures.records()));
    samples.add(gauge("chronix_stored_points", "Points in the collection's records", figures.storedPoints()));
    samples.add(gauge("chronix_data_dir_bytes", "Size of this node's data directory (without the unpacked native library)",
        figures.dataDirBytes()));
    if (indexInDataDir && figures.storedPoints() > 0) {
      samples.add(gauge("chronix_disk_bytes_per_point",
          "Data directory (index, logs) divided by the points stored", figures.dataDirBytes() / figures.storedPoints()));
    }
    if (rangeCache != null) {
      RangeCache.Stats cache = rangeCache.stats();
      String help = "PromQL range queries through the range cache since the start (not those with nocache=1), by"
          + " where their steps came from (kept: all kept from an earlier answer; partly: some; evaluated: none)";
      samples.add(new Sample("chronix_promql_range_answers", Kind.COUNTER, help, Map.of("from", "kept"), cache.hits()));
      samples.add(new Sample("chronix_promql_range_answers", Kind.COUNTER, help, Map.of("from", "partly"),
          cache.partHits()));
      samples.add(new Sample("chronix_promql_range_answers", Kind.COUNTER, help, Map.of("from", "evaluated"),
          cache.misses()));
      samples.add(gauge("chronix_promql_range_cache_bytes", "Range answers kept for the next request (estimated)",
          cache.bytes()));
    }
    samples.add(counter("chronix_logged_problems", "Warnings and errors logged since the start", errors.total()));
    samples.add(gauge("chronix_jvm_heap_used_bytes", "Java heap in use",
        ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed()));
    return samples;
  }

  private synchronized SlowFigures slowFigures() throws IOException {
    long now = clockMillis.getAsLong();
    if (slow == null || now - slow.takenMillis() >= SLOW_FIGURES_MILLIS) {
      SolrQuery query = new SolrQuery("*:*").setRows(0);
      query.setGetFieldStatistics(RecordFields.COUNT);
      QueryResponse response;
      try {
        response = solr.query(collection, query);
      } catch (SolrServerException | RuntimeException e) {
        throw new IOException("cannot count the records of " + collection + ": " + e.getMessage(), e);
      }
      FieldStatsInfo stats = response.getFieldStatsInfo() == null ? null
          : response.getFieldStatsInfo().get(RecordFields.COUNT);
      double points = stats == null || stats.getSum() == null ? 0 : ((Number) stats.getSum()).doubleValue();
      slow = new SlowFigures(now, response.getResults().getNumFound(), points, directorySize(dataDir));
    }
    return slow;
  }

  /**
   * Everything under the data directory but the copy of snappy's native library the server
   * unpacks there while it runs: 280 kB that is no stored data, and on a small store more than the
   * index itself.
   */
  private static long directorySize(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return 0;
    }
    Path library = SnappyLibraryDirectory.of(dir);
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(file -> !file.startsWith(library) && Files.isRegularFile(file))
          .mapToLong(ServerMetrics::sizeOrZero).sum();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /** Solr and the log delete files while we walk: a file gone is no longer on disk. */
  private static long sizeOrZero(Path file) {
    try {
      return Files.size(file);
    } catch (NoSuchFileException gone) {
      return 0;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Sample gauge(String name, String help, double value) {
    return new Sample(name, Kind.GAUGE, help, Map.of(), value);
  }

  private static Sample counter(String name, String help, double value) {
    return new Sample(name, Kind.COUNTER, help, Map.of(), value);
  }
}
