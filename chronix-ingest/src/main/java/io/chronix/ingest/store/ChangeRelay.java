package io.chronix.ingest.store;

import io.chronix.analysis.promql.engine.PointChanges;

/**
 * The store's changes to points, passed on to whoever keeps answers computed from them (the query
 * API's range cache). The storage and what changes the store are made before the query API, so
 * they report here and the API says where to once it is up; until then, and where it keeps
 * nothing, nobody listens.
 */
public final class ChangeRelay implements PointChanges {

  private volatile PointChanges target = PointChanges.NONE;

  /** Sends every change from now on to {@code target}. */
  public void to(PointChanges target) {
    this.target = target;
  }

  @Override
  public void changedFrom(long millis) {
    target.changedFrom(millis);
  }

  @Override
  public void changedAll() {
    target.changedAll();
  }

  @Override
  public boolean listens() {
    return target.listens();
  }
}
