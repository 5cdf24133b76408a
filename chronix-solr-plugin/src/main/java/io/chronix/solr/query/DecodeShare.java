package io.chronix.solr.query;

import io.chronix.core.budget.PointBudget;
import org.apache.solr.common.SolrException;

/**
 * A request's share of the points that a core's queries decode at once ({@link PointBudget}),
 * bounded by the limit that bounds one query ({@code maxDecodedPoints}): each query takes its
 * records' count before decoding them and gives it back when its request ends. A refusal is a 503:
 * the store cannot take the query now, and a client may retry.
 */
public final class DecodeShare implements AutoCloseable {

  /** How long a request that holds no points waits for room. */
  static final long WAIT_MILLIS = 5_000;

  /** For a collector outside a request: counts nothing against any budget. */
  static final DecodeShare NONE = new DecodeShare(null);

  private final PointBudget.Lease lease;

  private DecodeShare(PointBudget.Lease lease) {
    this.lease = lease;
  }

  /** A request's share of {@code budget}, to be closed when the request ends. */
  public static DecodeShare of(PointBudget budget) {
    return new DecodeShare(budget.lease());
  }

  /** @throws SolrException (503) where the queries in flight leave fewer than {@code points} */
  void take(long points) {
    if (lease != null && !lease.take(points, WAIT_MILLIS)) {
      throw new SolrException(SolrException.ErrorCode.SERVICE_UNAVAILABLE, lease.refusal(points)
          + " (chronix.maxDecodedPoints); retry when the queries in flight are done");
    }
  }

  @Override
  public void close() {
    if (lease != null) {
      lease.close();
    }
  }
}
