package dev.roundhouse.mcpserver;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Reads an SSE stream of JSON-RPC messages, as the hub's {@code /mcp} answers a POST or a GET: the {@code data:}
 * lines of each event, joined, are one message; ids and comments are ignored. Stateless; thread-safe.
 */
final class SseMessages {
  private SseMessages() {}

  /**
   * Hands each event's message to {@code each}, in order, until the stream ends.
   *
   * @throws IOException when reading fails or an event's data is not JSON
   */
  static void forEach(InputStream body, Consumer<JsonNode> each) throws IOException {
    BufferedReader events = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
    StringBuilder data = new StringBuilder();
    for (String line; (line = events.readLine()) != null; ) {
      if (line.isEmpty()) {
        if (!data.isEmpty()) {
          each.accept(Json.mapper().readTree(data.toString()));
          data.setLength(0);
        }
      } else if (line.startsWith("data:")) {
        if (!data.isEmpty()) {
          data.append('\n');
        }
        data.append(line.substring(line.startsWith("data: ") ? 6 : 5));
      }
    }
  }
}
