package io.chronix.core.budget;

/**
 * How the store marks its refusal of a query over its limit of decoded points (an error 400 with
 * this key in Solr's error metadata, the limit as its value): a caller that builds its own queries,
 * as the export does, tells it from other bad requests by the key rather than by the message, and
 * asks for fewer series. The metadata travels with the error between nodes as well.
 */
public final class LimitRefusal {

  public static final String METADATA_KEY = "chronix.maxDecodedPoints.exceeded";

  private LimitRefusal() {}
}
