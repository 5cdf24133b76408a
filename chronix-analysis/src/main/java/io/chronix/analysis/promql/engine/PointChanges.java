package io.chronix.analysis.promql.engine;

/**
 * What the store tells those who keep answers computed from its points: that the points visible at
 * or after a time changed (a late write, a rewrite, a delete), or that anything may have. Called
 * once the change is visible to queries, so that a query started afterwards reads it.
 */
public interface PointChanges {

  /** Nobody listens. */
  PointChanges NONE = new PointChanges() {
    @Override
    public void changedFrom(long millis) {}

    @Override
    public void changedAll() {}

    @Override
    public boolean listens() {
      return false;
    }
  };

  /** Points at or after {@code millis} (epoch milliseconds) were added, changed or removed. */
  void changedFrom(long millis);

  /** Points at any time may have changed. */
  void changedAll();

  /** Whether telling this is worth any work (finding a batch's earliest point). */
  default boolean listens() {
    return true;
  }
}
