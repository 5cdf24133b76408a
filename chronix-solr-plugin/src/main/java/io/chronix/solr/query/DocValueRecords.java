package io.chronix.solr.query;

import io.chronix.core.record.RecordFields;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.DocValuesType;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.SortedDocValues;
import org.apache.solr.schema.IndexSchema;
import org.apache.solr.schema.NumberType;
import org.apache.solr.schema.SchemaField;

/**
 * A record's stored fields but its blob, read from the segment's doc values. Lucene keeps all
 * stored fields of a record in one compressed block with its blob and neighbouring blobs, so even
 * a record whose statistics answer a query cost inflating that block (most of a {@code max}
 * over whole records). The configset gives every stored field but the blob doc values as well;
 * a segment written before that (or with a field without them) is read from stored fields.
 */
final class DocValueRecords {

  private final List<Column> columns;

  private DocValueRecords(List<Column> columns) {
    this.columns = columns;
  }

  /** The segment's reader of records without blobs, or null where a stored field lacks doc values. */
  static DocValueRecords of(LeafReader reader, IndexSchema schema) throws IOException {
    List<Column> columns = new ArrayList<>();
    for (FieldInfo info : reader.getFieldInfos()) {
      SchemaField field = schema.getFieldOrNull(info.name);
      if (field == null || !field.stored() || info.name.equals(RecordFields.DATA)) {
        continue;
      }
      if (field.multiValued()) {
        return null;
      }
      if (info.getDocValuesType() == DocValuesType.SORTED) {
        columns.add(new Text(info.name, DocValues.getSorted(reader, info.name)));
      } else if (info.getDocValuesType() == DocValuesType.NUMERIC && field.getType().getNumberType() != null) {
        columns.add(new Number(info.name, field.getType().getNumberType(), DocValues.getNumeric(reader, info.name)));
      } else {
        return null;
      }
    }
    return new DocValueRecords(columns);
  }

  /** The record's fields; documents must be asked in increasing order. */
  Document read(int doc) throws IOException {
    Document document = new Document();
    for (Column column : columns) {
      column.addTo(document, doc);
    }
    return document;
  }

  private interface Column {
    void addTo(Document document, int doc) throws IOException;
  }

  private record Text(String name, SortedDocValues values) implements Column {
    @Override
    public void addTo(Document document, int doc) throws IOException {
      if (values.advanceExact(doc)) {
        document.add(new StoredField(name, values.lookupOrd(values.ordValue()).utf8ToString()));
      }
    }
  }

  /** Single-valued numbers: Solr keeps them as their bits (not in sortable form) in NUMERIC doc values. */
  private record Number(String name, NumberType type, NumericDocValues values) implements Column {
    @Override
    public void addTo(Document document, int doc) throws IOException {
      if (!values.advanceExact(doc)) {
        return;
      }
      long bits = values.longValue();
      document.add(switch (type) {
        case DOUBLE -> new StoredField(name, Double.longBitsToDouble(bits));
        case FLOAT -> new StoredField(name, Float.intBitsToFloat((int) bits));
        case INTEGER -> new StoredField(name, (int) bits);
        default -> new StoredField(name, bits);
      });
    }
  }
}
