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
 * bytes: as {@link SeriesJson} wrote them ({@link RawJson}), or for other text encoded by the JDK.
 * Jackson's raw-string path encodes character by character: a quarter of the server time of a
 * whole-series fetch, after the points themselves were already written as bytes.
 */
public class ChronixJsonWriter extends JacksonJsonWriter {

  @Override
  public void write(OutputStream out, SolrQueryRequest req, SolrQueryResponse response) throws IOException {
    Writer writer = new Writer(jsonfactory, out, req, response);
    try {
      RawJson.bytesWanted(writer::writeResponse);
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
      RawJson raw = RawJson.takeBytes(json);
      gen.writeRawValue(raw != null ? new Utf8Json(raw) : new Utf8Json(json));
    }

    /** A raw value where the field is not marked raw after all: written as the string it is. */
    @Override
    public void writeStr(String name, String value, boolean needsEscaping) throws IOException {
      RawJson raw = RawJson.takeBytes(value);
      super.writeStr(name, raw != null ? raw.text() : value, needsEscaping);
    }
  }

  /** JSON text as UTF-8 bytes: a raw value's own, or the JDK's encoding (a copy for ASCII text) instead of Jackson's. */
  private static final class Utf8Json extends SerializedString {

    Utf8Json(String json) {
      super(json);
      _unquotedUTF8Ref = json.getBytes(StandardCharsets.UTF_8);
    }

    Utf8Json(RawJson raw) {
      super(RawJson.STAND_IN);
      _unquotedUTF8Ref = raw.byteLength() == raw.bytes().length ? raw.bytes()
          : java.util.Arrays.copyOf(raw.bytes(), raw.byteLength());
    }
  }
}
