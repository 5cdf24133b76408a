package io.chronix.solr.response;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronix.core.series.Points;
import io.chronix.core.series.Precision;
import io.chronix.core.series.ValueType;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrDocumentList;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.apache.solr.common.util.SimpleOrderedMap;
import org.apache.solr.request.LocalSolrQueryRequest;
import org.apache.solr.response.SolrQueryResponse;
import org.junit.jupiter.api.Test;

/** A series' points in a document, as the Chronix JSON writer writes them from their bytes. */
class ChronixJsonWriterTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Marked raw: the points' bytes become a JSON object. Not marked raw: the same text as a JSON
   * string, never the stand-in the writer trades for the bytes. Text beyond ASCII either way.
   */
  @Test
  void pointsAreAnObjectWhereRawAndTheirTextWhereNot() throws Exception {
    Points points = new Points(ValueType.STRING, 2);
    points.addText(1_000_000L, "grün ✓");
    points.addText(2_000_000L, "up");
    String text = SeriesJson.write(points, Precision.MILLISECONDS);

    JsonNode raw = write(points, true);
    assertEquals(JSON.readTree(text), raw.at("/response/docs/0/points"));

    JsonNode plain = write(points, false);
    assertEquals(text, plain.at("/response/docs/0/points").asText());
    assertFalse(plain.toString().contains(RawJson.STAND_IN));
  }

  private static JsonNode write(Points points, boolean markedRaw) throws Exception {
    SolrDocument document = new SolrDocument();
    document.setField(FieldList.POINTS, SeriesJson.encode(points, Precision.MILLISECONDS));
    SolrDocumentList documents = new SolrDocumentList();
    documents.add(document);
    documents.setNumFound(1);
    SolrQueryResponse response = new SolrQueryResponse();
    response.setAllValues(new SimpleOrderedMap<>());
    response.addResponse(documents);
    if (markedRaw) {
      response.setReturnFields(rawPoints());
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (LocalSolrQueryRequest request = new LocalSolrQueryRequest(null, new ModifiableSolrParams())) {
      new ChronixJsonWriter().write(out, request, response);
    }
    return JSON.readTree(out.toString(StandardCharsets.UTF_8));
  }

  private static org.apache.solr.search.ReturnFields rawPoints() throws Exception {
    java.lang.reflect.Constructor<RawJsonFields> constructor = RawJsonFields.class.getDeclaredConstructor();
    constructor.setAccessible(true);
    return constructor.newInstance();
  }
}
