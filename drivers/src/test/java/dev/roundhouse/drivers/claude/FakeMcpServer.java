package dev.roundhouse.drivers.claude;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.roundhouse.hub.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A minimal MCP server over Streamable HTTP (JSON responses only) on 127.0.0.1, offering one tool, {@code
 * suggest_task}, and refusing any request without the expected bearer token: enough to prove the driver
 * hands the hub's endpoint and token to the CLI. Stands in for the hub's own {@code /mcp} until that serves
 * agents' tools.
 *
 * <p>Thread-safe; one per test.
 */
final class FakeMcpServer implements AutoCloseable {
  private final HttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final String token;
  private final List<String> authorizations = new CopyOnWriteArrayList<>();
  private final List<JsonNode> calls = new CopyOnWriteArrayList<>();

  FakeMcpServer(String token) {
    this.token = token;
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setExecutor(executor);
    server.createContext("/mcp", this::handle);
    server.start();
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp");
  }

  /** The Authorization header of every request. */
  List<String> authorizations() {
    return List.copyOf(authorizations);
  }

  /** The {@code params} of every {@code tools/call}. */
  List<JsonNode> calls() {
    return List.copyOf(calls);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] raw = exchange.getRequestBody().readAllBytes();
      String authorization = exchange.getRequestHeaders().getFirst("Authorization");
      authorizations.add(String.valueOf(authorization));
      if (!("Bearer " + token).equals(authorization)) {
        reply(exchange, 401, "{\"error\":\"a task-scoped bearer token is required\"}");
        return;
      }
      if (!exchange.getRequestMethod().equals("POST")) {
        reply(exchange, 405, "");
        return;
      }
      JsonNode message = Json.mapper().readTree(new String(raw, StandardCharsets.UTF_8));
      if (!message.has("id")) {
        reply(exchange, 202, "");
        return;
      }
      ObjectNode response = Json.mapper().createObjectNode();
      response.put("jsonrpc", "2.0");
      response.set("id", message.get("id"));
      ObjectNode result = response.putObject("result");
      switch (message.path("method").asText()) {
        case "initialize" -> {
          result.put("protocolVersion", message.at("/params/protocolVersion").asText("2025-06-18"));
          result.putObject("capabilities").putObject("tools");
          result.putObject("serverInfo").put("name", "roundhouse").put("version", "test");
        }
        case "tools/list" -> {
          ObjectNode tool = result.putArray("tools").addObject();
          tool.put("name", "suggest_task").put("description", "Suggest a task for the board");
          ObjectNode schema = tool.putObject("inputSchema");
          schema.put("type", "object");
          schema.putObject("properties").putObject("title").put("type", "string");
          schema.putArray("required").add("title");
        }
        case "tools/call" -> {
          calls.add(message.get("params"));
          result.putArray("content").addObject().put("type", "text")
              .put("text", "suggested task #12: " + message.at("/params/arguments/title").asText());
        }
        default -> {
          // ping, resources/list, prompts/list: an empty result
        }
      }
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      reply(exchange, 200, response.toString());
    }
  }

  private static void reply(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      exchange.getResponseBody().write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
