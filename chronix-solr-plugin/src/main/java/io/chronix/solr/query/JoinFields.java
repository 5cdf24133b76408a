package io.chronix.solr.query;

import io.chronix.core.record.RecordFields;
import io.chronix.core.record.RecordSchema;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexableField;
import org.apache.solr.common.SolrException;

/**
 * The {@code cj} parameter: records whose values of these fields are equal form one series. A
 * record without one of the fields simply has no value for it (it joins the others lacking it).
 */
public final class JoinFields {

  public static final String PARAM = "cj";
  public static final JoinFields DEFAULT = new JoinFields(List.of(RecordFields.NAME, RecordFields.TYPE));
  /** {@code cj=*}: no join, every series (name, type and all attributes) on its own. */
  public static final String EACH_SERIES = "*";
  private static final JoinFields SERIES = new JoinFields(List.of());

  private final List<String> fields;

  private JoinFields(List<String> fields) {
    this.fields = List.copyOf(fields);
  }

  public static JoinFields parse(String cj) {
    if (cj == null || cj.isBlank()) {
      return DEFAULT;
    }
    if (cj.trim().equals(EACH_SERIES)) {
      return SERIES;
    }
    List<String> fields = new ArrayList<>();
    for (String field : FieldNames.split(cj)) {
      if (!RecordFields.isSeriesField(field)) {
        throw new SolrException(SolrException.ErrorCode.BAD_REQUEST,
            "cj: '" + field + "' is a record field, not a series field (use name, type or attributes)");
      }
      if (!fields.contains(field)) {
        fields.add(field);
      }
    }
    return fields.isEmpty() ? DEFAULT : new JoinFields(fields);
  }

  public List<String> fields() {
    return fields;
  }

  /**
   * Records are routed to shards by name and type, so a join that includes both finds all its
   * records on one shard.
   */
  public boolean isShardLocal() {
    return this == SERIES || (fields.contains(RecordFields.NAME) && fields.contains(RecordFields.TYPE));
  }

  /** The join key of a stored record: one entry per join field, null where the record lacks it. */
  public List<String> keyOf(Document document) {
    if (this == SERIES) {
      return List.of(RecordSchema.seriesIdOf(document.get(RecordFields.ID)));
    }
    List<String> key = new ArrayList<>(fields.size());
    for (String field : fields) {
      IndexableField value = document.getField(field);
      key.add(value == null ? null : SeriesFields.text(value));
    }
    return key;
  }

  /** The join key of a record as a query reads it: as {@link #keyOf(Document)} gives for its stored fields. */
  List<String> keyOf(ReadRecord record) {
    if (this == SERIES) {
      return List.of(record.seriesId());
    }
    List<String> key = new ArrayList<>(fields.size());
    for (String field : fields) {
      key.add(record.value(field));
    }
    return key;
  }

  public String toParam() {
    return this == SERIES ? EACH_SERIES : String.join(",", fields);
  }
}
