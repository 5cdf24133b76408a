package io.chronix.ingest;

import io.chronix.core.chunk.Chunker;
import io.chronix.ingest.buffer.Flusher;
import io.chronix.ingest.buffer.RecordSink;
import io.chronix.ingest.buffer.SeriesBuffers;
import io.chronix.ingest.compaction.Compactor;
import io.chronix.ingest.lifecycle.RetentionEnforcer;
import io.chronix.ingest.lifecycle.RetentionRules;
import io.chronix.ingest.lifecycle.RollupRetention;
import io.chronix.ingest.lifecycle.SeriesDeleter;
import io.chronix.ingest.rollup.OrphanRollups;
import io.chronix.ingest.rollup.RollupStore;
import io.chronix.ingest.rollup.RollupTiers;
import io.chronix.ingest.solr.EmbeddedSolrNode;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.pipeline.IngestPipeline;
import io.chronix.ingest.pipeline.ReplayFilter;
import io.chronix.ingest.semantic.SemanticRules;
import io.chronix.ingest.store.ChangeRelay;
import io.chronix.ingest.store.RecordStore;
import io.chronix.ingest.wal.SegmentFiles;
import io.chronix.ingest.wal.SegmentLedger;
import io.chronix.ingest.wal.WriteAheadLog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.SolrClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write side behind every protocol: the record store, the series buffers, the write-ahead log
 * with its segment ledger, the pipeline, the flusher and compaction, wired once. Opening it
 * replays the log; closing it writes every buffered point, commits and checkpoints, in that
 * order, then closes the log.
 */
public final class Storage implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Storage.class);

  private final RecordStore store;
  /** Named in the shutdown's line: the start's warm-up closes a storage of its own (StartWarmUp). */
  private final Path dataDir;
  private final SegmentLedger ledger = new SegmentLedger();
  private final SeriesBuffers buffers;
  private final ExecutorService chunkWriters = Executors.newFixedThreadPool(2, daemon("chronix-chunk-writer"));
  private final WriteAheadLog wal;
  private final IngestPipeline pipeline;
  private final Flusher flusher;
  private final Compactor compactor;
  private final SeriesDeleter deleter;
  /** Background compaction and retention, one task at a time. */
  private final ScheduledExecutorService maintenance;
  private final RetentionEnforcer retention;
  /** Where what changes stored points reports it (the query API's kept answers listen). */
  private final ChangeRelay changes = new ChangeRelay();

  /**
   * @param liveQueries whether queries in this process show buffered points (the embedded node):
   *     then chunks on their way to the store stay visible until searches see them
   */
  private Storage(ServerConfig config, SolrClient solr, boolean liveQueries, SegmentFiles walFiles) throws IOException {
    // settings that can be refused, read before any thread or file is opened that a refusal would leave behind
    RetentionRules retentionRules = config.retentionRules();
    RollupRetention rollupRetention = config.rollupRetention();
    store = new RecordStore(solr, config.collection());
    dataDir = config.dataDir();
    RollupStore rollups = rollups(config, solr, liveQueries, store);
    buffers = new SeriesBuffers(config.chunkMaxPoints(), config.chunkMaxBytes(), config.chunkMaxAge(),
        new RecordSink(new Chunker(config.chunkMaxPoints(), config.codec()),
            SemanticRules.parse(config.semanticRules(), config.chunkMaxPoints(), config.codec().compression()), store,
            rollups),
        chunkWriters, ledger);
    if (liveQueries) {
      buffers.trackOutgoing(RecordStore.SEARCH_LAG);
    }
    wal = new WriteAheadLog(config.dataDir().resolve("wal"), config.walSegmentBytes(), config.walFsync(),
        config.walFsyncInterval().toMillis(), walFiles, System::nanoTime);
    replay(solr, config.collection());
    // with the log failed, acknowledged points rest on memory alone: write them to the store
    wal.onFailure(this::relieve);
    // the flusher relieves the pipeline, which is made first: relieve() reads the field when it runs
    buffers.releaseIdleAfter(config.bufferReleaseIdleAfter());
    long budget = bufferBudget(config.bufferMaxBytes());
    // full chunks wait for a pause in the ingest, but not past the level the flusher relieves to
    buffers.paceWrites(config.chunkMaxWriteDelay(), Flusher.relievedBytes(budget));
    pipeline = new IngestPipeline(wal, ledger, buffers, store::makeDurable, budget, config.bufferMaxSeries(),
        this::relieve);
    pipeline.reportChangesTo(changes);
    flusher = new Flusher(buffers, pipeline, config.flushInterval(), budget);
    compactor = new Compactor(solr, config.collection(), config.chunkMaxPoints(), config.codec()).withRollups(rollups)
        .reportingTo(changes);
    deleter = new SeriesDeleter(solr, config.collection(), new Chunker(config.chunkMaxPoints(), config.codec()),
        compactor).withRollups(rollups, rollups == null ? null
            : new OrphanRollups(solr, config.collection(), EmbeddedSolrNode.rollupCore(config.collection())))
        .reportingTo(changes);
    retention = new RetentionEnforcer(solr, config.collection(), retentionRules, compactor, System::currentTimeMillis)
        .reportingTo(changes);
    if (rollups != null) {
      retention.alsoIn(EmbeddedSolrNode.rollupCore(config.collection()), rollupRetention);
    }
    maintenance = Executors.newSingleThreadScheduledExecutor(daemon("chronix-maintenance"));
    scheduleCompaction(config.compactionInterval().toMillis());
    if (!retentionRules.keepsEverything() || (rollups != null && rollupRetention.deletesOnItsOwn())) {
      scheduleRetention(config.retentionCheckInterval().toMillis());
    }
  }

  /**
   * The buffers' budget: buffer.maxBytes, but never more than a third of the heap, which Solr and
   * requests in flight need too; a configured budget the heap cannot hold would end in an
   * OutOfMemoryError instead of a 503.
   */
  private static long bufferBudget(long configured) {
    long heap = Runtime.getRuntime().maxMemory();
    long cap = heap == Long.MAX_VALUE ? configured : heap / 3;
    if (configured > cap) {
      LOG.warn("buffer.maxBytes={} does not fit a heap of {} MB: the buffers get {} MB (a third of the heap)",
          configured, heap >> 20, cap >> 20);
      return cap;
    }
    return configured;
  }

  private void relieve() {
    flusher.relieve();
  }

  /** @param walFiles the log's file operations: {@link SegmentFiles#DISK}, or a failing disk in tests */
  public static Storage open(ServerConfig config, SolrClient solr, boolean liveQueries, SegmentFiles walFiles)
      throws IOException {
    return new Storage(config, solr, liveQueries, walFiles);
  }

  /**
   * Puts what the log holds back into the buffers, drops what the store already has (the crash
   * came after it was written but before its segment was deleted) and writes the rest.
   */
  private void replay(SolrClient solr, String collection) throws IOException {
    buffers.pauseCutting();
    long batches = wal.replay((batch, segment) -> IngestPipeline.replayInto(batch, buffers, segment));
    if (batches > 0) {
      store.commit(); // what Solr recovered from its own log becomes searchable
      long replayed = buffers.bufferedPoints();
      long dropped = new ReplayFilter(solr, collection).apply(buffers);
      LOG.info("replayed {} logged batches: {} points, {} of them already stored", batches, replayed, dropped);
    }
    buffers.resumeCutting();
    if (batches > 0) {
      writeBuffers();
    }
  }

  /** The rollup store when tiers are set; they need the embedded node (its second core). */
  private static RollupStore rollups(ServerConfig config, SolrClient solr, boolean embedded, RecordStore store) {
    RollupTiers tiers = config.rollupTiers();
    if (tiers.isEmpty()) {
      return null;
    }
    if (!embedded) {
      throw new IllegalArgumentException("rollup.tiers needs the embedded Solr node (not yet with solr.url or "
          + "solr.zkHost): leave it empty");
    }
    String core = EmbeddedSolrNode.rollupCore(config.collection());
    store.commitAlso(core); // a flush makes the tiers searchable with the records
    return new RollupStore(solr, core, tiers);
  }

  private void scheduleCompaction(long millis) {
    if (millis <= 0) {
      return;
    }
    maintenance.scheduleWithFixedDelay(() -> {
      try {
        Compactor.Result result = compactor.compact();
        if (result.series() > 0) {
          LOG.info("compaction merged {} records of {} series into {}", result.recordsRead(), result.series(),
              result.recordsWritten());
        }
      } catch (IOException | RuntimeException e) {
        LOG.warn("compaction failed, will retry: {}", e.getMessage());
      }
    }, millis, millis, TimeUnit.MILLISECONDS);
  }

  private void scheduleRetention(long millis) {
    maintenance.scheduleWithFixedDelay(() -> {
      try {
        RetentionEnforcer.Result result = retention.enforce();
        if (result.records() + result.rollups() > 0) {
          LOG.info("retention deleted {} records past their series' retention and {} rollup records",
              result.records(), result.rollups());
        }
      } catch (IOException | RuntimeException e) {
        LOG.warn("retention check failed, will retry: {}", e.getMessage());
      }
    }, millis, millis, TimeUnit.MILLISECONDS);
  }

  private static ThreadFactory daemon(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }

  public IngestPipeline pipeline() {
    return pipeline;
  }

  public SeriesBuffers buffers() {
    return buffers;
  }

  public RecordStore store() {
    return store;
  }

  /**
   * Writes every buffered point as records and commits, so that everything acknowledged is
   * searchable and durable in the index: /flush, and before a delete, backup or restore.
   */
  public void writeBuffers() throws IOException {
    buffers.flushAll();
    buffers.commit(store::commit);
  }

  /** Where changes to stored points are told; {@link ChangeRelay#to} says who hears them. */
  public ChangeRelay changes() {
    return changes;
  }

  public RetentionEnforcer retention() {
    return retention;
  }

  public SeriesDeleter deleter() {
    return deleter;
  }

  public Compactor compactor() {
    return compactor;
  }

  public WriteAheadLog wal() {
    return wal;
  }

  /** Writes every buffered point, commits, deletes the log segments that held them, closes the log. */
  @Override
  public void close() throws IOException {
    maintenance.shutdownNow();
    try {
      flusher.close();
      long pending = buffers.bufferedPoints();
      // the chunk writers still run: the last flush can cut full chunks, and waits for them
      writeBuffers();
      chunkWriters.shutdown();
      try {
        chunkWriters.awaitTermination(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      pipeline.checkpoint();
      LOG.info("wrote {} buffered points of {} on shutdown", pending, dataDir);
    } finally {
      wal.close();
    }
  }
}
