package dev.roundhouse.lspbridge.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.roundhouse.hub.core.Json;
import java.io.IOException;
import java.util.Optional;

/**
 * The {@code id} and {@code method} of a JSON-RPC message read from its first bytes only: what a face needs to
 * answer a message it refuses to read whole (one past its size cap). Clients write {@code jsonrpc}, {@code id}
 * and {@code method} before {@code params}, so the first few KiB of a message hold them; a member that does
 * not fit in those bytes is simply not found. Immutable.
 */
public final class MessageHead {
  /** How many leading bytes of a refused message are read for its head. */
  public static final int PREFIX = 4096;

  private static final MessageHead NOTHING = new MessageHead(null, null);

  private final JsonNode id;
  private final String method;

  private MessageHead(JsonNode id, String method) {
    this.id = id;
    this.method = method;
  }

  /** The message's id when it is a string or an integer and came before the bytes ran out. */
  public Optional<JsonNode> id() {
    return Optional.ofNullable(id);
  }

  /** The message's method when it is a string and came before the bytes ran out. */
  public Optional<String> method() {
    return Optional.ofNullable(method);
  }

  /** True when the head is a request's: the refusal can be answered with its id. */
  public boolean isRequest() {
    return id != null && method != null;
  }

  /** The head of the message that starts with {@code prefix} (UTF-8), whatever follows it; never fails. */
  public static MessageHead of(byte[] prefix, int length) {
    JsonNode id = null;
    String method = null;
    try (JsonParser parser = Json.mapper().getFactory().createParser(prefix, 0, length)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return NOTHING;
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME && (id == null || method == null)) {
        String name = parser.currentName();
        JsonToken value = parser.nextToken();
        if (name.equals("id") && value == JsonToken.VALUE_STRING) {
          id = JsonNodeFactory.instance.textNode(parser.getText());
        } else if (name.equals("id") && value == JsonToken.VALUE_NUMBER_INT) {
          id = JsonNodeFactory.instance.numberNode(parser.getBigIntegerValue());
        } else if (name.equals("method") && value == JsonToken.VALUE_STRING) {
          method = parser.getText();
        } else {
          parser.skipChildren();
        }
      }
    } catch (IOException | RuntimeException truncatedOrMalformed) {
      // the prefix ends (or stops being JSON) here: what was read so far is the head
    }
    return new MessageHead(id, method);
  }
}
