package io.chronix.solr.response;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.solr.common.PushWriter;
import org.apache.solr.request.SolrQueryRequest;
import org.apache.solr.response.JacksonJsonWriter;
import org.apache.solr.response.SolrQueryResponse;

/**
 * Solr's JSON response writer (registered as {@code json} in the configset), except that a raw
 * field's JSON ({@code fl=points}, see {@link RawJsonFields}) goes to the generator as its UTF-8
 * bytes. Jackson's raw-string path encodes character by character: a quarter of the server time
 * of a whole-series fetch, after the points themselves were already written as bytes.
 */
public class ChronixJsonWriter extends JacksonJsonWriter {

  @Override
  public void write(OutputStream out, SolrQueryRequest req, SolrQueryResponse response) throws IOException {
    Writer writer = new Writer(jsonfactory, out, req, response);
    try {
      writer.writeResponse();
    } finally {
      writer.close();
    }
  }

  @Override
  public PushWriter getWriter(OutputStream out, SolrQueryRequest req, SolrQueryResponse response) {
    return new Writer(jsonfactory, out, req, response);
  }

  private static final class Writer extends WriterImpl {

    Writer(JsonFactory factory, OutputStream out, SolrQueryRequest req, SolrQueryResponse response) {
      super(factory, out, req, response);
    }

    @Override
    public void writeStrRaw(String name, String json) throws IOException {
      gen.writeRawValue(new Utf8Json(json));
    }
  }

  /** JSON text whose UTF-8 form the JDK makes (a copy for ASCII text) instead of Jackson's encoder. */
  private static final class Utf8Json extends SerializedString {

    Utf8Json(String json) {
      super(json);
      _unquotedUTF8Ref = json.getBytes(StandardCharsets.UTF_8);
    }
  }
}
