package dev.roundhouse.drivers.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import dev.roundhouse.hub.core.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One request a {@link FakeHttpServer} was sent: its method, path (without the query), headers (names in
 * lower case) and body as text.
 *
 * <p>Immutable, so thread-safe.
 */
public record RecordedRequest(String method, String path, Map<String, List<String>> headers, String body) {

  public RecordedRequest {
    headers = Map.copyOf(headers);
  }

  static RecordedRequest read(HttpExchange exchange) throws IOException {
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    Map<String, List<String>> headers = new HashMap<>();
    exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), List.copyOf(values)));
    return new RecordedRequest(exchange.getRequestMethod(), exchange.getRequestURI().getPath(), headers, body);
  }

  /** The body parsed as JSON. */
  public JsonNode json() {
    return Json.read(body, JsonNode.class);
  }

  /** The body as compact JSON text, for "does the request mention X" checks. */
  public String text() {
    return json().toString();
  }

  /** The first value of header {@code name} (in any case), or null when the request had none. */
  public String header(String name) {
    List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
    return values == null || values.isEmpty() ? null : values.get(0);
  }
}
