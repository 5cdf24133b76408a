package io.chronix.ingest.protocol;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import java.io.IOException;

/**
 * A JSON body of items (points, value lists): one object or an array of them. The array is
 * streamed, one item's tree at a time, so that a large body is not held as one tree as well.
 */
public final class JsonItems {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Receives each item with its 1-based position. */
  @FunctionalInterface
  public interface Handler {
    void item(int index, JsonNode item) throws IOException;
  }

  private JsonItems() {}

  /**
   * Calls the handler for each item (which may be no object at all; the handler reports that).
   *
   * @throws MalformedBodyException when the body is not JSON or neither an object nor an array;
   *     items handled before the syntax error was found must be discarded
   */
  public static void forEach(String body, Handler handler) throws IOException, MalformedBodyException {
    try (JsonParser parser = JSON.createParser(body)) {
      JsonToken token = parser.nextToken();
      if (token == null) {
        throw new MalformedBodyException("empty body: expected a JSON object or an array of objects");
      }
      if (token == JsonToken.START_OBJECT) {
        handler.item(1, readItem(parser));
      } else if (token == JsonToken.START_ARRAY) {
        int index = 0;
        while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
          if (token == null) {
            throw new MalformedBodyException("body ends inside the JSON array");
          }
          index++;
          handler.item(index, readItem(parser));
        }
        token = JsonToken.START_ARRAY;
      } else {
        throw new MalformedBodyException("body must be a JSON object or an array of objects, not " + describe(token));
      }
      if (parser.nextToken() != null) {
        throw new MalformedBodyException("unexpected content after the JSON " + (token == JsonToken.START_OBJECT ? "object" : "array")
            + " at " + location(parser));
      }
    } catch (JsonProcessingException e) {
      throw new MalformedBodyException("body is not valid JSON: " + e.getOriginalMessage()
          + (e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr()));
    }
  }

  private static JsonNode readItem(JsonParser parser) throws IOException {
    JsonNode node = JSON.readTree(parser);
    return node == null ? NullNode.getInstance() : node;
  }

  /**
   * A measured value: a JSON number, or with {@code textAllowed} a string holding one. Integers
   * beyond 2^53 are refused, as the line protocol refuses them.
   *
   * @param what names the value in messages ("value")
   */
  public static double number(JsonNode node, String what, boolean textAllowed) {
    if (node.isIntegralNumber()) {
      if (!node.canConvertToLong()) {
        throw new IllegalArgumentException(what + " " + node.asText() + " exceeds 2^53 and cannot be stored exactly as a double");
      }
      try {
        return WireNumbers.exactInteger(node.longValue());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(what + ": " + e.getMessage());
      }
    }
    if (node.isNumber()) {
      double value = node.doubleValue();
      if (!Double.isFinite(value)) {
        throw new IllegalArgumentException(what + " " + node.asText() + " is too large for a double");
      }
      return value;
    }
    if (textAllowed && node.isTextual()) {
      return WireNumbers.value(node.textValue());
    }
    throw new IllegalArgumentException(what + " must be a number" + (textAllowed ? " or a numeric string" : "")
        + ", not " + describe(node));
  }

  /** A JSON type as a message names it. */
  public static String describe(JsonNode node) {
    switch (node.getNodeType()) {
      case ARRAY: return "an array";
      case OBJECT: return "an object";
      case STRING: return "a string";
      case NUMBER: return "a number";
      case BOOLEAN: return "a boolean";
      case NULL: return "null";
      default: return node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private static String describe(JsonToken token) {
    switch (token) {
      case VALUE_STRING: return "a string";
      case VALUE_NUMBER_INT:
      case VALUE_NUMBER_FLOAT: return "a number";
      case VALUE_TRUE:
      case VALUE_FALSE: return "a boolean";
      case VALUE_NULL: return "null";
      default: return token.name();
    }
  }

  private static String location(JsonParser parser) {
    return "line " + parser.currentLocation().getLineNr() + ", column " + parser.currentLocation().getColumnNr();
  }
}
