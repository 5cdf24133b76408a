package io.chronix.solr.distributed;

import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.series.Points;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.apache.solr.common.params.SolrParams;

/** What a coordinator tells shards beyond the user's parameters, and hidden answer fields. */
public final class ShardParams {

  /** Shard answers joined, clipped points (blob) per join key, without evaluating functions. */
  public static final String PARTIAL = "chronix.partial";
  /** Reference series resolved by the coordinator: query and blob, in parallel lists. */
  static final String REFERENCE_QUERY = "chronix.refQuery";
  static final String REFERENCE_DATA = "chronix.refData";
  /** Which reference a coordinator's shard request resolves. */
  static final String REFERENCE_INDEX = "chronix.refIndex";
  /** What only a coordinator may send: a shard verifies the signature over them ({@link ShardSignature}). */
  public static final List<String> INTERNAL = List.of(PARTIAL, REFERENCE_QUERY, REFERENCE_DATA, REFERENCE_INDEX);
  /** Hidden fields of shard answers; the coordinator removes them. */
  public static final String SORT_KEY = "_chronixSortKey";
  static final String JOIN_KEY = "_chronixJoinKey";
  /** Field of a partial answer's document: the write order of the record its points come from. */
  static final String WRITE_ORDER = "_chronixWriteOrder";
  /** Field of a partial answer's document: the series id of the record its points come from. */
  static final String SERIES_ID = "_chronixSeriesId";

  private ShardParams() {}

  public static Map<String, Points> references(SolrParams params) {
    Map<String, Points> references = new HashMap<>();
    String[] queries = params.getParams(REFERENCE_QUERY);
    String[] data = params.getParams(REFERENCE_DATA);
    if (queries != null && data != null) {
      for (int i = 0; i < Math.min(queries.length, data.length); i++) {
        references.put(queries[i], ChunkCodec.decode(Base64.getDecoder().decode(data[i])));
      }
    }
    return references;
  }

  static void addReferences(ModifiableSolrParams params, Map<String, Points> references) {
    for (Map.Entry<String, Points> reference : references.entrySet()) {
      params.add(REFERENCE_QUERY, reference.getKey());
      params.add(REFERENCE_DATA, Base64.getEncoder().encodeToString(ChunkCodec.lossless().encode(reference.getValue())));
    }
  }
}
