package io.chronix.solr.query;

import io.chronix.core.record.RecordFields;
import io.chronix.core.series.SortedArrayMap;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.DocValuesType;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.FixedBitSet;
import org.apache.solr.schema.IndexSchema;
import org.apache.solr.schema.NumberType;
import org.apache.solr.schema.SchemaField;

/**
 * A record's stored fields but its blob, read from the segment's doc values. Lucene keeps all
 * stored fields of a record in one compressed block with its blob and neighbouring blobs, so even
 * a record whose statistics answer a query cost inflating that block (most of a {@code max}
 * over whole records). The configset gives every stored field but the blob doc values as well;
 * a segment written before that (or with a field without them) is read from stored fields.
 *
 * <p>Records are read together, a column at a time, and a text column's values are looked up in
 * the order of their ordinals. Lucene keeps a text column's terms LZ4-compressed in blocks of 64:
 * looked up in document order, every record's id (its own term) and every attribute value cost
 * inflating a block again, a third of listing 10,000 series. In ordinal order each block is
 * inflated once, and a value shared by many records is looked up once. A series field's values,
 * once looked up, are kept by ordinal while the segment is open ({@link OrdinalTexts}), and so are
 * the records' ordinals of a series field whose values are listed ({@link RecordOrdinals}).
 */
final class DocValueRecords {

  private final List<Column> columns;

  private DocValueRecords(List<Column> columns) {
    this.columns = columns;
  }

  /**
   * Field names as {@link String#intern} gives them: each segment reads its field names anew, and
   * interned, the rows of two segments share them. Looked up here first: a query asks for every
   * field of every segment it reads, and the JVM's string table was 1.4 % of a one-hour `max`. As
   * many entries as the index has field names, which every segment's field infos hold too.
   */
  private static final ConcurrentHashMap<String, String> INTERNED = new ConcurrentHashMap<>();

  private static String internedName(String name) {
    String interned = INTERNED.get(name);
    return interned != null ? interned : INTERNED.computeIfAbsent(name, String::intern);
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
        columns.add(new Text(internedName(info.name), reader));
      } else if (info.getDocValuesType() == DocValuesType.NUMERIC && field.getType().getNumberType() != null) {
        columns.add(new Number(info.name, field.getType().getNumberType(), reader));
      } else {
        return null;
      }
    }
    return new DocValueRecords(columns);
  }

  /**
   * The records' fields, one document per record in the order given.
   *
   * @param docs the segment's document numbers, increasing
   */
  Document[] read(int[] docs, int count) throws IOException {
    Document[] documents = new Document[count];
    for (int i = 0; i < count; i++) {
      documents[i] = new Document();
    }
    for (Column column : columns) {
      column.addTo(documents, docs, count);
    }
    return documents;
  }

  /**
   * Adds the distinct values of a field among the records, as a record's field gives them as text
   * ({@link SeriesFields#text}); nothing where no column holds the field.
   *
   * @param docs the segment's document numbers, increasing
   */
  void addValues(String field, int[] docs, int count, Collection<String> values) throws IOException {
    for (Column column : columns) {
      if (column.name().equals(field)) {
        column.addValues(docs, count, values);
      }
    }
  }

  /** Adds the names of the fields that {@code wanted} admits and one of the records has a value of. */
  void addPresent(int[] docs, int count, Predicate<String> wanted, Set<String> names) throws IOException {
    for (Column column : columns) {
      if (!names.contains(column.name()) && wanted.test(column.name()) && column.anyOf(docs, count)) {
        names.add(column.name());
      }
    }
  }

  private interface Column {
    String name();

    /** Adds the column's value (if any) to each record's document. */
    void addTo(Document[] documents, int[] docs, int count) throws IOException;

    void addValues(int[] docs, int count, Collection<String> values) throws IOException;

    boolean anyOf(int[] docs, int count) throws IOException;

    /** Each record's value as text ({@link SeriesFields#text}), null where it has none. */
    String[] texts(int[] docs, int count) throws IOException;
  }

  /**
   * Each record's fields that {@code wanted} admits, as text, one row per record in the order
   * given (a record without a field lacks its entry).
   */
  List<SortedArrayMap<String>> fieldsOf(int[] docs, int count, Predicate<String> wanted) throws IOException {
    List<Column> read = new ArrayList<>();
    for (Column column : columns) {
      if (wanted.test(column.name())) {
        read.add(column);
      }
    }
    read.sort(Comparator.comparing(Column::name));
    String[] names = new String[read.size()];
    String[][] texts = new String[read.size()][];
    for (int c = 0; c < names.length; c++) {
      names[c] = read.get(c).name();
      texts[c] = read.get(c).texts(docs, count);
    }
    List<SortedArrayMap<String>> rows = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int present = 0;
      for (String[] column : texts) {
        if (column[i] != null) {
          present++;
        }
      }
      String[] rowNames = present == names.length ? names : new String[present];
      String[] rowValues = new String[present];
      int at = 0;
      for (int c = 0; c < names.length; c++) {
        if (texts[c][i] != null) {
          rowNames[at] = names[c];
          rowValues[at++] = texts[c][i];
        }
      }
      rows.add(new SortedArrayMap<>(rowNames, rowValues));
    }
    return rows;
  }

  /**
   * Whether any of the records has a value in the column. The column and the records leapfrog:
   * asked record by record, a column that none of 10,000 matching records has (a label of other
   * series) cost 10,000 lookups, most of listing the label names.
   *
   * @param docs increasing
   */
  private static boolean anyOf(DocIdSetIterator values, int[] docs, int count) throws IOException {
    int i = 0;
    while (i < count) {
      int next = values.docID() >= docs[i] ? values.docID() : values.advance(docs[i]);
      if (next == DocIdSetIterator.NO_MORE_DOCS) {
        return false;
      }
      if (next == docs[i]) {
        return true;
      }
      int at = Arrays.binarySearch(docs, i + 1, count, next);
      i = at >= 0 ? at : -at - 1;
    }
    return false;
  }

  private record Text(String name, LeafReader reader) implements Column {
    @Override
    public void addTo(Document[] documents, int[] docs, int count) throws IOException {
      String[] texts = texts(docs, count);
      for (int i = 0; i < count; i++) {
        if (texts[i] != null) {
          documents[i].add(new StoredField(name, texts[i]));
        }
      }
    }

    @Override
    public String[] texts(int[] docs, int count) throws IOException {
      // doc values iterate forward only: a fresh iterator per read
      SortedDocValues values = DocValues.getSorted(reader, name);
      String[] kept = kept(values);
      String[] texts = new String[count];
      long[] byOrd = null; // records whose value is not kept yet, by ordinal
      int missing = 0;
      for (int i = 0; i < count; i++) {
        if (values.advanceExact(docs[i])) {
          int ord = values.ordValue();
          String value = kept == null ? null : kept[ord];
          if (value != null) {
            texts[i] = value;
          } else {
            if (byOrd == null) {
              byOrd = new long[count - i];
            }
            byOrd[missing++] = ((long) ord << 32) | i;
          }
        }
      }
      if (missing == 0) {
        return texts;
      }
      Arrays.sort(byOrd, 0, missing);
      int lastOrd = -1;
      String value = null;
      for (int p = 0; p < missing; p++) {
        int ord = (int) (byOrd[p] >>> 32);
        if (ord != lastOrd) {
          value = text(values, ord, kept);
          lastOrd = ord;
        }
        texts[(int) byOrd[p]] = value;
      }
      return texts;
    }

    @Override
    public void addValues(int[] docs, int count, Collection<String> values) throws IOException {
      SortedDocValues column = DocValues.getSorted(reader, name);
      String[] kept = kept(column);
      FixedBitSet seen = new FixedBitSet(Math.max(1, column.getValueCount()));
      int[] ords = RecordFields.isSeriesField(name) ? RecordOrdinals.of(reader, name) : null;
      if (ords != null) {
        for (int i = 0; i < count; i++) {
          int ord = ords[docs[i]];
          if (ord != RecordOrdinals.NONE) {
            seen.set(ord);
          }
        }
      } else {
        for (int i = 0; i < count; i++) {
          if (column.advanceExact(docs[i])) {
            seen.set(column.ordValue());
          }
        }
      }
      // in ordinal order: each block of the terms dictionary inflated once
      for (int ord = seen.nextSetBit(0); ord != DocIdSetIterator.NO_MORE_DOCS;
          ord = ord + 1 < seen.length() ? seen.nextSetBit(ord + 1) : DocIdSetIterator.NO_MORE_DOCS) {
        values.add(text(column, ord, kept));
      }
    }

    /** The segment's kept values of a series field ({@link OrdinalTexts}); null for other columns or where none are kept. */
    private String[] kept(SortedDocValues values) {
      return RecordFields.isSeriesField(name) ? OrdinalTexts.column(reader, name, values.getValueCount()) : null;
    }

    private static String text(SortedDocValues values, int ord, String[] kept) throws IOException {
      if (kept == null) {
        return values.lookupOrd(ord).utf8ToString();
      }
      String value = kept[ord];
      if (value == null) {
        // one instance for a value in every segment: rows of two segments compare by identity
        value = values.lookupOrd(ord).utf8ToString().intern();
        kept[ord] = value;
      }
      return value;
    }

    @Override
    public boolean anyOf(int[] docs, int count) throws IOException {
      return DocValueRecords.anyOf(DocValues.getSorted(reader, name), docs, count);
    }
  }

  /** Single-valued numbers: Solr keeps them as their bits (not in sortable form) in NUMERIC doc values. */
  private record Number(String name, NumberType type, LeafReader reader) implements Column {
    @Override
    public void addTo(Document[] documents, int[] docs, int count) throws IOException {
      NumericDocValues values = DocValues.getNumeric(reader, name);
      for (int i = 0; i < count; i++) {
        if (values.advanceExact(docs[i])) {
          documents[i].add(field(values.longValue()));
        }
      }
    }

    @Override
    public void addValues(int[] docs, int count, Collection<String> values) throws IOException {
      NumericDocValues column = DocValues.getNumeric(reader, name);
      Set<Long> distinct = new HashSet<>();
      for (int i = 0; i < count; i++) {
        if (column.advanceExact(docs[i])) {
          distinct.add(column.longValue());
        }
      }
      for (long bits : distinct) {
        values.add(SeriesFields.text(field(bits)));
      }
    }

    @Override
    public boolean anyOf(int[] docs, int count) throws IOException {
      return DocValueRecords.anyOf(DocValues.getNumeric(reader, name), docs, count);
    }

    @Override
    public String[] texts(int[] docs, int count) throws IOException {
      NumericDocValues column = DocValues.getNumeric(reader, name);
      String[] texts = new String[count];
      for (int i = 0; i < count; i++) {
        if (column.advanceExact(docs[i])) {
          texts[i] = SeriesFields.text(field(column.longValue()));
        }
      }
      return texts;
    }

    private StoredField field(long bits) {
      return switch (type) {
        case DOUBLE -> new StoredField(name, Double.longBitsToDouble(bits));
        case FLOAT -> new StoredField(name, Float.intBitsToFloat((int) bits));
        case INTEGER -> new StoredField(name, (int) bits);
        default -> new StoredField(name, bits);
      };
    }
  }
}
