package io.chronix.solr.query;

import io.chronix.core.record.RecordFields;
import io.chronix.core.record.RecordSchema;
import io.chronix.core.series.AttributeMap;
import io.chronix.core.series.ByNames;
import io.chronix.core.series.SeriesKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.StoredField;
import org.apache.solr.schema.BinaryField;
import org.apache.solr.schema.DoublePointField;
import org.apache.solr.schema.IndexSchema;
import org.apache.solr.schema.LongPointField;
import org.apache.solr.schema.SchemaField;
import org.apache.solr.schema.StrField;

/**
 * How a schema stores a buffered series' record, where it stores each field as given: a string,
 * long, double or binary field holding a value of its type, one value, no copy field filling
 * others, no default adding fields, no field required that a record lacks (the project's schema).
 * There a buffered series' key is what a stored record of it lists ({@link #keyAsGiven}), and its
 * record's stored fields can be made straight from the values ({@link #storedFields}); elsewhere
 * Solr's {@code DocumentBuilder} makes the document. Making the whole document was a quarter of a
 * {@code sum by} over 1,000 series with buffered points, and a listing asks about every buffered
 * series, so the answers per field are kept for the request.
 */
final class BufferedRecordSchema {

  /** A field stored as given: the Java type of its values, and whether it is stored at all. */
  private record Plain(Class<?> type, boolean stored) {}

  private static final Plain NOT_PLAIN = new Plain(null, false);

  private final IndexSchema schema;
  private final List<String> required = new ArrayList<>();
  private final Map<String, Plain> fields = new HashMap<>();
  private final ByNames<AttributeMap, Boolean> namesAsGiven = new ByNames<>(this::namesAsGiven);

  private BufferedRecordSchema(IndexSchema schema) {
    this.schema = schema;
  }

  /** Null where the schema adds fields by default or requires one a buffered series' record lacks. */
  static BufferedRecordSchema of(IndexSchema schema) {
    if (!schema.getFieldsWithDefaultValue().isEmpty()) {
      return null;
    }
    BufferedRecordSchema records = new BufferedRecordSchema(schema);
    for (SchemaField field : schema.getRequiredFields()) {
      String name = field.getName();
      if (!RecordSchema.BUFFERED_FIELDS.contains(name) && !name.equals(RecordFields.DATA)) {
        return null;
      }
      records.required.add(name);
    }
    return records;
  }

  /** Whether the record of this key stores its name, type and attributes as they are. */
  boolean keyAsGiven(SeriesKey key) {
    return namesAsGiven.apply(key.attributes(), 0); // a listing asks this of every buffered series
  }

  private boolean namesAsGiven(AttributeMap attributes) {
    if (!storedString(RecordFields.NAME) || !storedString(RecordFields.TYPE)) {
      return false;
    }
    for (int i = 0; i < attributes.size(); i++) {
      if (!storedString(attributes.name(i))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The stored fields Solr would make of this record (its fields and the blob), less its indexed
   * and doc-value fields; null where a field is not stored as given, or the record lacks one the
   * schema requires (Solr's to convert, or to refuse).
   */
  Document storedFields(Map<String, Object> record) {
    for (String name : required) {
      if (!record.containsKey(name)) {
        return null;
      }
    }
    Document stored = new Document();
    for (Map.Entry<String, Object> field : record.entrySet()) {
      Plain plain = plain(field.getKey());
      Object value = field.getValue();
      if (plain.type() == null || plain.type() != value.getClass()) {
        return null;
      }
      if (plain.stored()) {
        String name = field.getKey();
        stored.add(value instanceof String text ? new StoredField(name, text)
            : value instanceof Long number ? new StoredField(name, number)
            : value instanceof Double number ? new StoredField(name, number)
            : new StoredField(name, (byte[]) value));
      }
    }
    return stored;
  }

  private boolean storedString(String field) {
    Plain plain = plain(field);
    return plain.type() == String.class && plain.stored();
  }

  private Plain plain(String name) {
    Plain plain = fields.get(name); // not computeIfAbsent: its lambda was made anew each call
    if (plain == null) {
      plain = plainOf(schema.getFieldOrNull(name));
      fields.put(name, plain);
    }
    return plain;
  }

  private Plain plainOf(SchemaField field) {
    if (field == null || field.multiValued() || !schema.getCopyFieldsList(field.getName()).isEmpty()) {
      return NOT_PLAIN;
    }
    Class<?> type = field.getType().getClass();
    Class<?> values = type == StrField.class ? String.class : type == LongPointField.class ? Long.class
        : type == DoublePointField.class ? Double.class : type == BinaryField.class ? byte[].class : null;
    return values == null ? NOT_PLAIN : new Plain(values, field.stored());
  }
}
