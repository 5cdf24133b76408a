/**
 * Aggregations, transformations and analyses over decoded series, and the Chronix function-query
 * syntax. Depends only on chronix-core so that it can run in the Solr plugin, in the ingest server
 * or in a client.
 */
package io.chronix.analysis;
