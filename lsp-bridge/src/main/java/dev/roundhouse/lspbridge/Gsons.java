package dev.roundhouse.lspbridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import dev.roundhouse.hub.core.Json;

/** Crossing between our JSON (Jackson) and LSP4J's (Gson), through text. Stateless. */
final class Gsons {
  private Gsons() {}

  static JsonElement of(JsonNode node) {
    return JsonParser.parseString(Json.write(node));
  }

  static JsonElement parse(String text) {
    return JsonParser.parseString(text);
  }
}
