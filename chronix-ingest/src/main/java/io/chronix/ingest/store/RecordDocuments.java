package io.chronix.ingest.store;

import io.chronix.core.record.Record;
import io.chronix.core.record.RecordFields;
import io.chronix.core.record.RecordStats;
import io.chronix.core.series.SeriesKey;
import java.util.Map;
import java.util.TreeMap;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;

/** Maps a record to the Solr document the configset's schema describes. */
public final class RecordDocuments {

  private RecordDocuments() {}

  public static SolrInputDocument toDocument(Record record) {
    SolrInputDocument document = new SolrInputDocument();
    document.setField(RecordFields.ID, record.id());
    document.setField(RecordFields.NAME, record.key().name());
    document.setField(RecordFields.TYPE, record.key().type());
    document.setField(RecordFields.START, RecordFields.nanosToMillis(record.start()));
    document.setField(RecordFields.END, RecordFields.nanosToMillis(record.end()));
    document.setField(RecordFields.DATA, record.data());
    RecordStats stats = record.stats();
    document.setField(RecordFields.COUNT, stats.count());
    document.setField(RecordFields.MIN, stats.min());
    document.setField(RecordFields.MAX, stats.max());
    document.setField(RecordFields.SUM, stats.sum());
    document.setField(RecordFields.FIRST, stats.first());
    document.setField(RecordFields.LAST, stats.last());
    for (Map.Entry<String, String> attribute : record.key().attributes().entrySet()) {
      document.setField(attribute.getKey(), attribute.getValue());
    }
    return document;
  }

  /** The series a stored record belongs to: its name, type and attribute fields. */
  public static SeriesKey keyOf(SolrDocument document) {
    Map<String, String> attributes = new TreeMap<>();
    for (String field : document.getFieldNames()) {
      if (RecordFields.isAttribute(field)) {
        attributes.put(field, String.valueOf(document.getFirstValue(field)));
      }
    }
    return new SeriesKey((String) document.getFirstValue(RecordFields.NAME),
        (String) document.getFirstValue(RecordFields.TYPE), attributes);
  }
}
