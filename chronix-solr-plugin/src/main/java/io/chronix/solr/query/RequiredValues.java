package io.chronix.solr.query;

import io.chronix.core.record.RecordFields;
import io.chronix.core.series.SeriesKey;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;
import org.apache.solr.schema.IndexSchema;
import org.apache.solr.schema.SchemaField;
import org.apache.solr.schema.StrField;

/**
 * Exact values a query demands of a series' name, type or string attributes, such as the
 * {@code name:cpu} of {@code name:cpu AND host:a}. Matching a buffered series costs an in-memory
 * index; a series that lacks a demanded value cannot match, so it is passed over without one, and
 * without copying its points. Only term clauses that every match needs count (required clauses of
 * plain boolean, boost and constant-score queries), so this never passes over a series the query
 * would match.
 */
final class RequiredValues {

  private static final int NAME = 0;
  private static final int TYPE = 1;
  private static final int ATTRIBUTE = 2;

  private final Map<String, Set<BytesRef>> values;
  /**
   * The demanded values as the keys hold them, decoded once: a query for one series of a name
   * with a thousand buffered series tests every one of them (a bytes form per key and test was
   * most of a live query's time under a fleet's load).
   */
  private final String[] fields;
  /** Per field: {@link #NAME}, {@link #TYPE} or {@link #ATTRIBUTE}, so that a test compares no field names. */
  private final int[] kinds;
  private final String[] wanted;
  /**
   * Per attribute field, its value in keys read where the field sits among their names, found once
   * a name list: a binary search of every key's names for it was a twentieth of a live query.
   * Makes an instance one request thread's.
   */
  private final KeyFieldValue[] attributes;
  /** Two different values demanded of one field: no series has both. */
  private final boolean contradictory;

  RequiredValues(Map<String, Set<BytesRef>> values) {
    this.values = values;
    this.fields = new String[values.size()];
    this.kinds = new int[values.size()];
    this.wanted = new String[values.size()];
    this.attributes = new KeyFieldValue[values.size()];
    boolean contradictory = false;
    int i = 0;
    for (Map.Entry<String, Set<BytesRef>> demanded : values.entrySet()) {
      fields[i] = demanded.getKey();
      kinds[i] = fields[i].equals(RecordFields.NAME) ? NAME : fields[i].equals(RecordFields.TYPE) ? TYPE : ATTRIBUTE;
      wanted[i] = demanded.getValue().iterator().next().utf8ToString();
      attributes[i] = kinds[i] == ATTRIBUTE ? new KeyFieldValue(fields[i]) : null;
      contradictory |= demanded.getValue().size() > 1;
      i++;
    }
    this.contradictory = contradictory;
  }

  static RequiredValues of(List<Query> queries, IndexSchema schema) {
    Map<String, Set<BytesRef>> values = new HashMap<>();
    QueryVisitor collector = new QueryVisitor() {
      @Override
      public QueryVisitor getSubVisitor(BooleanClause.Occur occur, Query parent) {
        boolean required = occur == BooleanClause.Occur.MUST || occur == BooleanClause.Occur.FILTER;
        boolean plain = parent instanceof BooleanQuery || parent instanceof BoostQuery
            || parent instanceof ConstantScoreQuery;
        // other wrappers (joins, block joins) match documents other than the ones their terms are on
        return required && plain ? this : QueryVisitor.EMPTY_VISITOR;
      }

      @Override
      public void consumeTerms(Query query, Term... terms) {
        if (query instanceof TermQuery && terms.length == 1 && isExactSeriesField(terms[0].field(), schema)) {
          values.computeIfAbsent(terms[0].field(), f -> new HashSet<>()).add(terms[0].bytes());
        }
      }
    };
    for (Query query : queries) {
      query.visit(collector);
    }
    return new RequiredValues(values);
  }

  /**
   * A series field whose one indexed term is the series' value as it is: a plain string field
   * that neither copy fields nor a default fill in where the series has no value.
   */
  private static boolean isExactSeriesField(String field, IndexSchema schema) {
    if (!RecordFields.isSeriesField(field)) {
      return false;
    }
    SchemaField schemaField = schema.getFieldOrNull(field);
    return schemaField != null
        && schemaField.indexed()
        && schemaField.getType().getClass() == StrField.class
        && schemaField.getDefaultValue() == null
        && !schema.isCopyFieldTarget(schemaField);
  }

  /** The one name every match has, or null where the query does not demand one. */
  String name() {
    Set<BytesRef> names = values.get(RecordFields.NAME);
    return names == null || names.size() != 1 ? null : names.iterator().next().utf8ToString();
  }

  /**
   * The index among the demanded values of one demanded of an attribute, -1 where none is (or two
   * values are demanded of one field): a source can visit only the series with it.
   */
  int anAttribute() {
    if (contradictory) {
      return -1;
    }
    for (int i = 0; i < fields.length; i++) {
      if (kinds[i] == ATTRIBUTE) {
        return i;
      }
    }
    return -1;
  }

  String field(int demanded) {
    return fields[demanded];
  }

  String value(int demanded) {
    return wanted[demanded];
  }

  boolean admits(SeriesKey key) {
    if (contradictory) {
      return false;
    }
    for (int i = 0; i < fields.length; i++) {
      String value = switch (kinds[i]) {
        case NAME -> key.name();
        case TYPE -> key.type();
        default -> attributes[i].of(key);
      };
      if (!wanted[i].equals(value)) {
        return false;
      }
    }
    return true;
  }
}
