package io.chronix.ingest.solr;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.solr.common.params.MultiMapSolrParams;

/**
 * A GET's query string read into Solr's parameters as Solr's request parsers read it
 * ({@code SolrRequestParsers.parseQueryString}), in one pass over the string. Solr's parser reads
 * the string a byte at a time through a stream into byte buffers and decodes every key and value
 * with a new charset decoder: 4 % of the CPU of a one-hour {@code max} (docs/benchmarks.md).
 *
 * <p>Only what reads the same for certain is read here: keys of ASCII letters, digits, {@code .},
 * {@code _} and {@code -}; values with {@code +} for a space and {@code %}-escapes of UTF-8.
 * Anything else answers null, and Solr's parser reads the string, with its errors: a character
 * above 127, an incomplete or non-hex escape, an empty key or one Solr would trim, the input
 * encoding key {@code ie}, bytes that are not UTF-8.
 */
final class QueryStringParams {

  /** The key that names another charset for the whole string, in Solr's parser. */
  private static final String INPUT_ENCODING = "ie";

  private QueryStringParams() {}

  /** The parameters as Solr's parser reads them, or null where that parser is to read them. */
  static MultiMapSolrParams parse(String query) {
    Map<String, String[]> map = new HashMap<>();
    int length = query == null ? 0 : query.length();
    int at = 0;
    while (at < length) {
      int end = query.indexOf('&', at);
      if (end < 0) {
        end = length;
      }
      if (end > at) { // an empty piece (a&&b) is skipped by Solr's parser too
        int keyEnd = at;
        while (keyEnd < end && query.charAt(keyEnd) != '=') {
          if (!isKeyChar(query.charAt(keyEnd))) {
            return null;
          }
          keyEnd++;
        }
        if (keyEnd == at) {
          return null;
        }
        String key = query.substring(at, keyEnd);
        if (key.equals(INPUT_ENCODING)) {
          return null;
        }
        String value = keyEnd == end ? "" : decode(query, keyEnd + 1, end);
        if (value == null) {
          return null;
        }
        MultiMapSolrParams.addParam(key, value, map);
      }
      at = end + 1;
    }
    return new MultiMapSolrParams(map);
  }

  private static boolean isKeyChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_'
        || c == '-';
  }

  /** An ASCII hex digit's value, else -1 (Character.digit would take other scripts' digits too). */
  private static int hexDigit(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    return -1;
  }

  /** The value between from and to, or null where Solr's parser is to read it. */
  private static String decode(String query, int from, int to) {
    int plain = from;
    while (plain < to) {
      char c = query.charAt(plain);
      if (c > 127) {
        return null;
      }
      if (c == '%' || c == '+') {
        break;
      }
      plain++;
    }
    if (plain == to) {
      return query.substring(from, to);
    }
    byte[] bytes = new byte[to - from];
    int size = 0;
    boolean ascii = true;
    for (int i = from; i < to; i++) {
      char c = query.charAt(i);
      if (c > 127) {
        return null;
      }
      if (c == '+') {
        bytes[size++] = ' ';
      } else if (c == '%') {
        if (i + 2 >= to) {
          return null;
        }
        int high = hexDigit(query.charAt(i + 1));
        int low = hexDigit(query.charAt(i + 2));
        if (high < 0 || low < 0) {
          return null;
        }
        byte b = (byte) (high << 4 | low);
        ascii &= b >= 0;
        bytes[size++] = b;
        i += 2;
      } else {
        bytes[size++] = (byte) c;
      }
    }
    if (ascii) {
      return new String(bytes, 0, size, StandardCharsets.US_ASCII);
    }
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes, 0, size)).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }
}
