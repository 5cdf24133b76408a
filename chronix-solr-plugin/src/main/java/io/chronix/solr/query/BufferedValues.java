package io.chronix.solr.query;

import java.util.Set;

/**
 * The values of one series field (the name, the type or an attribute) one of which a buffered
 * series must have to be visited by a listing: those the records did not give.
 */
record BufferedValues(String field, Set<String> values) {}
