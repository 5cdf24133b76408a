package io.chronix.solr.query;

import io.chronix.core.record.RecordStats;

/**
 * A matched record as the join needs it: its blob, its write order, and its span (epoch
 * milliseconds) with its statistics, which answer whole-record aggregations without decoding.
 */
record StoredChunk(String id, long version, byte[] data, long startMillis, long endMillis, RecordStats stats) {}
