package dev.roundhouse.drivers.acp;

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
 * A minimal MCP server (Streamable HTTP, JSON answers, no SSE) on 127.0.0.1 offering one tool, {@code
 * suggest_task}, recording each request's method and {@code Authorization} header and each tool call. It
 * stands in for the hub's MCP face, whose task-scoped agent tools are being built elsewhere: it proves that
 * the driver hands the endpoint and its token to the agent and that the agent calls through it.
 *
 * <p>Thread-safe.
 */
final class FakeMcpServer implements AutoCloseable {
  record Call(String method, String authorization, JsonNode params) {}

  private final HttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final List<Call> calls = new CopyOnWriteArrayList<>();

  FakeMcpServer() {
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

  List<Call> calls() {
    return List.copyOf(calls);
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (!exchange.getRequestMethod().equals("POST")) {
        exchange.sendResponseHeaders(405, -1);
        return;
      }
      JsonNode request = Json.read(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8), JsonNode.class);
      String method = request.path("method").asText();
      calls.add(new Call(method, exchange.getRequestHeaders().getFirst("Authorization"), request.path("params")));
      if (!request.has("id")) {
        exchange.sendResponseHeaders(202, -1);
        return;
      }
      ObjectNode answer = Json.mapper().createObjectNode().put("jsonrpc", "2.0");
      answer.set("id", request.get("id"));
      switch (method) {
        case "initialize" -> {
          ObjectNode result = answer.putObject("result");
          result.put("protocolVersion", request.at("/params/protocolVersion").asText("2025-06-18"));
          result.putObject("capabilities").putObject("tools");
          result.putObject("serverInfo").put("name", "fake-roundhouse").put("version", "0");
        }
        case "tools/list" -> {
          ObjectNode tool = answer.putObject("result").putArray("tools").addObject();
          tool.put("name", "suggest_task").put("description", "Suggest a task for the board");
          ObjectNode schema = tool.putObject("inputSchema").put("type", "object");
          schema.putObject("properties").putObject("title").put("type", "string");
          schema.putArray("required").add("title");
        }
        case "tools/call" -> answer.putObject("result").putArray("content").addObject().put("type", "text").put("text", "suggested task #2");
        default -> answer.putObject("error").put("code", -32601).put("message", "no method " + method);
      }
      byte[] body = answer.toString().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
    }
  }
}
