package io.chronix.solr.query;

import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import org.apache.lucene.document.Document;

/**
 * Not yet stored points of one series that a query matched: its fields as a stored record of it
 * would return them, and its points sorted and de-duplicated.
 */
record LiveChunk(SeriesKey key, Document fields, Points points) {}
