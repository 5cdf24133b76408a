package io.chronix.solr.response;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.series.Points;
import io.chronix.core.series.Precision;
import io.chronix.solr.query.SeriesFields;
import java.util.List;
import org.apache.solr.common.SolrDocument;
import org.junit.jupiter.api.Test;

/** The {@code data} field: an encoded blob for every reader, the points themselves for one in the process. */
class SeriesDocumentsTest {

  @Test
  void dataIsABlobUnlessTheCallerIsInTheProcess() {
    Points points = new Points();
    points.add(1_000_000L, 1.5);
    points.add(2_000_000L, 2.5);
    SeriesFields fields = new SeriesFields();
    fields.add("name", "cpu");
    FieldList wanted = FieldList.parse(new String[] {"name,+data"});

    SolrDocument blob = SeriesDocuments.render(fields, points, List.of(), false, wanted, Precision.MILLISECONDS);
    assertTrue(blob.getFieldValue(FieldList.DATA) instanceof byte[], "a blob for readers through Solr's writers");
    Points decoded = ChunkCodec.decode((byte[]) blob.getFieldValue(FieldList.DATA));
    assertEquals(2, decoded.size());
    assertEquals(2.5, decoded.value(1));

    SolrDocument objects = SeriesDocuments.render(fields, points, List.of(), false, wanted.inProcess(),
        Precision.MILLISECONDS);
    assertSame(points, objects.getFieldValue(FieldList.DATA), "the points as they are, not encoded");
    assertEquals("cpu", objects.getFieldValue("name"));
  }
}
