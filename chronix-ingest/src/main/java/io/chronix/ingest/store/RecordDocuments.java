package io.chronix.ingest.store;

import io.chronix.core.record.Record;
import io.chronix.core.record.RecordSchema;
import io.chronix.core.series.SeriesKey;
import java.util.Map;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;

/** A record as a SolrJ document and back; the fields are {@link RecordSchema}'s. */
public final class RecordDocuments {

  private RecordDocuments() {}

  public static SolrInputDocument toDocument(Record record, long writeOrder) {
    SolrInputDocument document = new SolrInputDocument();
    for (Map.Entry<String, Object> field : RecordSchema.fields(record, writeOrder).entrySet()) {
      document.setField(field.getKey(), field.getValue());
    }
    return document;
  }

  /** The series a stored record belongs to: its name, type and attribute fields. */
  public static SeriesKey keyOf(SolrDocument document) {
    return RecordSchema.keyOf(document);
  }
}
