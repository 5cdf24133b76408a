package io.chronix.solr.query;

/** A matched record before decoding: its document id, write order and blob. */
record StoredChunk(String id, long version, byte[] data) {}
