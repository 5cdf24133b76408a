package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.record.RecordFields;
import io.chronix.core.record.RecordSchema;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.ValueType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexableField;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.schema.IndexSchema;
import org.apache.solr.update.DocumentBuilder;
import org.junit.jupiter.api.Test;

/**
 * A buffered record's stored fields made directly must be those Solr's DocumentBuilder stores,
 * and a key counts as stored as given exactly where they are made directly.
 */
class BufferedRecordSchemaTest extends OnTestCore {

  @Test
  void storedAsSolrStoresThem() {
    IndexSchema schema = core.getLatestSchema();
    Random random = new Random(11);
    int made = 0;
    for (int round = 0; round < 300; round++) {
      Map<String, String> attributes = new TreeMap<>();
      if (random.nextBoolean()) {
        attributes.put("host", "h" + random.nextInt(5));
      }
      if (random.nextInt(4) == 0) {
        attributes.put("rack_l", random.nextBoolean() ? "7" : "x"); // a long field: Solr's way
      }
      if (random.nextInt(5) == 0) {
        attributes.put("_protocol", "influx");
      }
      SeriesKey key = SeriesKey.metric("m" + random.nextInt(3), attributes);
      Points points = new Points(ValueType.DOUBLE, 4);
      for (int i = 0; i <= random.nextInt(4); i++) {
        points.add(random.nextInt(1_000_000) * 1_000L, random.nextInt(9) == 0 ? Double.NaN : random.nextGaussian());
      }
      points.sortAndDeduplicate();
      Map<String, Object> record = new LinkedHashMap<>(RecordSchema.bufferedFields(key, points));
      record.put(RecordFields.DATA, new byte[0]);
      BufferedRecordSchema records = BufferedRecordSchema.of(schema);
      Document direct = records.storedFields(record);
      assertEquals(direct != null, records.keyAsGiven(key), key.toString());
      if (attributes.containsKey("rack_l")) {
        assertNull(direct, "a number given as text is Solr's to convert");
        continue;
      }
      SolrInputDocument input = new SolrInputDocument();
      record.forEach(input::setField);
      Document solr = new Document();
      for (IndexableField field : DocumentBuilder.toDocument(input, schema)) {
        if (field.fieldType().stored()) {
          solr.add(field);
        }
      }
      assertEquals(described(solr), described(direct), key.toString());
      made++;
    }
    assertTrue(made > 150, "records made directly: " + made);
  }

  /** Each stored field as a reader sees it, in name order. */
  private static List<String> described(Document document) {
    List<String> fields = new ArrayList<>();
    for (IndexableField field : document) {
      fields.add(field.name() + "=" + field.stringValue() + "|" + field.numericValue() + "|"
          + (field.binaryValue() == null ? null : field.binaryValue().length));
    }
    fields.sort(null);
    return fields;
  }
}
