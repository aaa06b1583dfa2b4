package dev.roundhouse.lspbridge.lsp;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.gson.JsonElement;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hubclient.HubErrorException;

/**
 * The one crossing between the hub's JSON and LSP4J's Gson: always through text. An operation's output is
 * parsed from the text the hub sent (no Jackson tree in between); an event, which the follower has already
 * read as a Jackson tree, is written back to text first. The {@code roundhouse/*} results are the hub's JSON
 * as is, which is why they are not typed records here: LSP4J's Gson would write a record's fields in its own
 * names (camelCase, instants as objects), not the hub's wire names. Stateless.
 */
final class Gsons {
  private Gsons() {}

  /** An event (or part of one) the follower read. */
  static JsonElement of(JsonNode node) {
    return JsonParser.parseString(Json.write(node));
  }

  /** An operation's output, as the hub sent it; {@code what} names the call in the error when it is not JSON. */
  static JsonElement output(String what, String text) {
    try {
      return JsonParser.parseString(text);
    } catch (JsonParseException e) {
      throw new HubErrorException(502, "bad_response", "the hub answered " + what + " with something that is not JSON: " + e.getMessage());
    }
  }
}
