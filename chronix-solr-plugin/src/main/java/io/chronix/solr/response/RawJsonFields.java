package io.chronix.solr.response;

import java.util.Collection;
import java.util.Set;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.handler.component.ResponseBuilder;
import org.apache.solr.response.JSONResponseWriter;
import org.apache.solr.response.JacksonJsonWriter;
import org.apache.solr.response.QueryResponseWriter;
import org.apache.solr.response.transform.DocTransformer;
import org.apache.solr.search.SolrReturnFields;

/**
 * Lets the JSON response writers copy the {@code points} field, which already holds JSON, into
 * the answer as it is: an object the client parses once, instead of a string it parses twice
 * and the server escapes character by character. Solr marks such fields through the return
 * fields' transformer (as its {@code [json]} transformer does); other response formats keep the
 * field a string.
 */
public final class RawJsonFields extends SolrReturnFields {

  private static final DocTransformer MARKER = new DocTransformer() {
    @Override
    public String getName() {
      return "chronix-raw-json";
    }

    @Override
    public Collection<String> getRawFields() {
      return Set.of(FieldList.POINTS);
    }

    @Override
    public void transform(SolrDocument doc, int docid) {
      // the field is rendered by SeriesDocuments; the marker only names it raw
    }
  };

  private RawJsonFields() {}

  /** Marks {@code points} raw when the query asked for it and the answer is written as JSON. */
  public static void applyTo(ResponseBuilder rb, FieldList fl) {
    if (!fl.points()) {
      return;
    }
    QueryResponseWriter writer = rb.req.getCore().getQueryResponseWriter(rb.req);
    if (writer instanceof JacksonJsonWriter || writer instanceof JSONResponseWriter) {
      rb.rsp.setReturnFields(new RawJsonFields());
    }
  }

  @Override
  public DocTransformer getTransformer() {
    return MARKER;
  }
}
