package io.chronix.solr.query;

import io.chronix.core.record.RecordFields;
import io.chronix.core.record.RecordSchema;
import io.chronix.core.series.AttributeMap;
import io.chronix.core.series.SeriesKey;
import java.util.HashMap;
import java.util.Map;
import org.apache.solr.schema.IndexSchema;
import org.apache.solr.schema.SchemaField;
import org.apache.solr.schema.StrField;

/**
 * Whether a schema takes a series' record as it is and stores its name, type and attributes as
 * given, so that a buffered series' key is what a stored record of it lists (and the record is
 * not refused): each of those fields a stored string field that no copy field and no default adds
 * to, and no field required that a record lacks. {@link LiveMatcher} lists buffered series from
 * their keys where this holds, else from the documents the schema makes of their records.
 */
final class KeyFields {


  private final IndexSchema schema;
  /** Per field name seen: whether it is stored as given. */
  private final Map<String, Boolean> asGiven = new HashMap<>();

  private KeyFields(IndexSchema schema) {
    this.schema = schema;
  }

  /** Null where the schema adds series fields by default or requires fields a record lacks. */
  static KeyFields of(IndexSchema schema) {
    for (SchemaField field : schema.getFieldsWithDefaultValue()) {
      if (isSeriesField(field.getName())) {
        return null;
      }
    }
    for (SchemaField field : schema.getRequiredFields()) {
      if (!RecordSchema.BUFFERED_FIELDS.contains(field.getName()) && !field.getName().equals(RecordFields.DATA)) {
        return null;
      }
    }
    return new KeyFields(schema);
  }

  /** Whether the record of this key stores its name, type and attributes as they are. */
  boolean asGiven(SeriesKey key) {
    if (!field(RecordFields.NAME) || !field(RecordFields.TYPE)) {
      return false;
    }
    AttributeMap attributes = key.attributes(); // by index: a listing asks this of every buffered series
    for (int i = 0; i < attributes.size(); i++) {
      if (!field(attributes.name(i))) {
        return false;
      }
    }
    return true;
  }

  private boolean field(String name) {
    Boolean known = asGiven.get(name); // not computeIfAbsent: its lambda was made anew each call, a series' attributes each
    if (known == null) {
      SchemaField field = schema.getFieldOrNull(name);
      known = field != null
          && field.stored()
          && field.getType().getClass() == StrField.class
          && !field.multiValued()
          && schema.getCopyFieldsList(name).isEmpty();
      asGiven.put(name, known);
    }
    return known;
  }

  private static boolean isSeriesField(String field) {
    return field.equals(RecordFields.NAME) || field.equals(RecordFields.TYPE) || RecordFields.isAttribute(field);
  }
}
