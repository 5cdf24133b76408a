package io.chronix.ingest.cluster;

import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.pipeline.BatchWriter;
import io.chronix.ingest.pipeline.PointBatch;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The write path of an ingest node among several: each series goes to the buffers of the one
 * live node that owns it ({@link SeriesOwners}), so its chunks stay whole and no two nodes write
 * records of it at once. A request's points of series owned elsewhere are forwarded to their
 * owners, one batch per owner, before this node stores its own: if an owner cannot take its part,
 * the request fails with 503 and nothing of it is stored here (points sent twice by a retry
 * replace themselves: the same series and timestamp hold one value).
 */
public final class OwnerRouter implements BatchWriter {

  private final String self;
  private final BatchWriter local;
  private final BatchForwarder forwarder;
  private volatile SeriesOwners owners;

  public OwnerRouter(String self, BatchWriter local, BatchForwarder forwarder) {
    this.self = self;
    this.local = local;
    this.forwarder = forwarder;
    this.owners = new SeriesOwners(List.of(self));
  }

  /** Takes a new member list (from {@link IngestNodes}). */
  public void membersChanged(List<String> members) {
    owners = new SeriesOwners(members);
  }

  @Override
  public void write(PointBatch batch) throws IOException {
    SeriesOwners current = owners;
    if (current.members().size() == 1) {
      local.write(batch);
      return;
    }
    Map<String, PointBatch> parts = new LinkedHashMap<>();
    SeriesKey previous = null;
    PointBatch part = null;
    for (int i = 0; i < batch.size(); i++) {
      SeriesKey key = batch.key(i);
      if (key != previous) { // batches come in runs of one series: one owner lookup a run
        part = parts.computeIfAbsent(current.ownerOf(key), owner -> new PointBatch());
        previous = key;
      }
      batch.copyTo(i, part);
    }
    PointBatch own = parts.remove(self);
    for (Map.Entry<String, PointBatch> remote : parts.entrySet()) {
      forwarder.send(remote.getKey(), remote.getValue());
    }
    if (own != null) {
      local.write(own);
    }
  }
}
