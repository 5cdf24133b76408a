package io.chronix.ingest.protocol.prometheus;

import io.chronix.analysis.promql.model.LabelMatcher;
import io.chronix.core.series.PrometheusNames;
import io.chronix.ingest.protocol.MalformedBodyException;
import io.chronix.ingest.protocol.prometheus.proto.Query;
import io.chronix.ingest.protocol.prometheus.proto.ReadRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.xerial.snappy.Snappy;

/**
 * Decodes a remote read request (snappy-framed {@code prometheus.ReadRequest}) within a bound on
 * its decompressed size, and turns each query's matchers into selector matchers. Everything wrong
 * with a body is a {@link MalformedBodyException} or, for a query's matchers, an
 * {@link IllegalArgumentException} naming the query: both are the client's 4xx.
 */
public final class RemoteReadRequests {

  private RemoteReadRequests() {}

  public static ReadRequest decode(byte[] body, long maxBytes) throws MalformedBodyException {
    try {
      if (!Snappy.isValidCompressedBuffer(body)) {
        throw new MalformedBodyException("the body is not snappy-compressed");
      }
      if (Snappy.uncompressedLength(body) > maxBytes) {
        throw MalformedBodyException.tooLarge("the request decompresses to more than " + maxBytes + " bytes");
      }
      return ReadRequest.parseFrom(Snappy.uncompress(body));
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new MalformedBodyException("the body is not a prometheus.ReadRequest: " + e.getMessage());
    } catch (IOException e) {
      // snappy's own complaint about a damaged frame
      throw new MalformedBodyException("the body is not snappy-compressed: " + e.getMessage());
    }
  }

  /** The matchers of the query at {@code index} (0-based; messages count from 1). */
  public static List<LabelMatcher> matchers(Query query, int index) {
    List<LabelMatcher> matchers = new ArrayList<>();
    for (io.chronix.ingest.protocol.prometheus.proto.LabelMatcher m : query.getMatchersList()) {
      LabelMatcher.Type type;
      switch (m.getType()) {
        case NEQ:
          type = LabelMatcher.Type.NOT_EQUAL;
          break;
        case RE:
          type = LabelMatcher.Type.REGEX;
          break;
        case NRE:
          type = LabelMatcher.Type.NOT_REGEX;
          break;
        default:
          type = LabelMatcher.Type.EQUAL;
      }
      try {
        matchers.add(LabelMatcher.of(type, PrometheusNames.unescape(m.getName()), m.getValue()));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("query " + (index + 1) + ": " + e.getMessage());
      }
    }
    if (matchers.stream().allMatch(LabelMatcher::matchesEmpty)) {
      throw new IllegalArgumentException("query " + (index + 1) + ": at least one matcher must not match the empty value");
    }
    return matchers;
  }
}
