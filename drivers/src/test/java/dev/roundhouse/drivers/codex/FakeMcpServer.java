package dev.roundhouse.drivers.codex;

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
 * The smallest MCP server Codex will talk to (Streamable HTTP, JSON answers) on 127.0.0.1: one tool,
 * {@code suggest_task}, which answers "suggested task 42". Accepts only the bearer token it was made with
 * (401 otherwise) and records every call and the {@code Authorization} headers it saw. For driver-level
 * tests; the end-to-end test uses the hub's real MCP endpoint. Thread-safe.
 */
final class FakeMcpServer implements AutoCloseable {
  private final HttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final String token;
  private final List<JsonNode> calls = new CopyOnWriteArrayList<>();
  private final List<String> authorizations = new CopyOnWriteArrayList<>();

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

  List<JsonNode> calls() {
    return List.copyOf(calls);
  }

  List<String> authorizations() {
    return List.copyOf(authorizations);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body = exchange.getRequestBody().readAllBytes();
      String authorization = exchange.getRequestHeaders().getFirst("Authorization");
      authorizations.add(String.valueOf(authorization));
      if (!("Bearer " + token).equals(authorization)) {
        exchange.sendResponseHeaders(401, -1);
        return;
      }
      if (!exchange.getRequestMethod().equals("POST")) {
        exchange.sendResponseHeaders(405, -1);
        return;
      }
      JsonNode message = Json.mapper().readTree(body);
      if (!message.has("id")) {
        exchange.sendResponseHeaders(202, -1);
        return;
      }
      ObjectNode answer = Json.mapper().createObjectNode().put("jsonrpc", "2.0");
      answer.set("id", message.get("id"));
      ObjectNode result = answer.putObject("result");
      switch (message.path("method").asText()) {
        case "initialize" -> {
          result.put("protocolVersion", message.at("/params/protocolVersion").asText("2025-06-18"));
          result.putObject("capabilities").putObject("tools");
          result.putObject("serverInfo").put("name", "roundhouse").put("version", "test");
          exchange.getResponseHeaders().set("Mcp-Session-Id", "session-1");
        }
        case "tools/list" -> {
          ObjectNode tool = result.putArray("tools").addObject().put("name", "suggest_task").put("description", "Suggest a task for the board");
          ObjectNode schema = tool.putObject("inputSchema").put("type", "object");
          schema.putObject("properties").putObject("title").put("type", "string");
          schema.putArray("required").add("title");
        }
        case "tools/call" -> {
          calls.add(message.path("params"));
          result.putArray("content").addObject().put("type", "text").put("text", "suggested task 42");
        }
        default -> {
          // ping and the like: an empty result
        }
      }
      byte[] bytes = Json.write(answer).getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, bytes.length);
      exchange.getResponseBody().write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
