package io.chronix.solr.query;

import io.chronix.core.series.Points;
import java.util.List;

/**
 * One record's points of a join group, as a shard sends them to the coordinator of a distributed
 * query ({@link SeriesCollector#collectParts}), with what orders it in the merge ({@link JoinOrder}).
 *
 * @param seriesId the record's series id ({@link io.chronix.core.record.RecordSchema#seriesId})
 * @param writeOrder the record's write order ({@link io.chronix.core.record.RecordSchema#writeOrder});
 *     buffered points have {@link Long#MAX_VALUE}
 */
public record SeriesPart(List<String> joinKey, SeriesFields fields, String seriesId, long writeOrder, Points points) {}
