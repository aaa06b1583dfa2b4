package dev.roundhouse.drivers.acp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.roundhouse.hub.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A fake Gemini API: real HTTP on 127.0.0.1 and a free port, answering each {@code POST
 * /v1beta/models/MODEL:streamGenerateContent?alt=sse} with the next scripted reply (text, function calls,
 * an API error, a stream that stalls) and recording every request, whatever its path. A model request
 * with nothing scripted gets a 500 that names it, so a test that asks for more than it scripted fails
 * loudly; any other path gets a 404.
 *
 * <p>Thread-safe; one per test, closed after it.
 */
final class FakeGeminiServer implements AutoCloseable {

  /** What the server was sent. */
  record Recorded(String path, String body) {
    JsonNode json() {
      return Json.read(body, JsonNode.class);
    }

    /** Every text and function response the request carries, in order, as one string. */
    String contentsText() {
      return json().path("contents").toString();
    }
  }

  /** One scripted answer. */
  @FunctionalInterface
  interface Reply {
    void answer(HttpExchange exchange) throws IOException;
  }

  private final HttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final BlockingQueue<Reply> replies = new LinkedBlockingQueue<>();
  private final List<Recorded> requests = new CopyOnWriteArrayList<>();
  private final CountDownLatch closing = new CountDownLatch(1);

  private FakeGeminiServer() {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  static FakeGeminiServer start() {
    return new FakeGeminiServer();
  }

  /** What {@code GOOGLE_GEMINI_BASE_URL} is set to. */
  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  FakeGeminiServer enqueue(Reply... scripted) {
    replies.addAll(List.of(scripted));
    return this;
  }

  /** The model requests ({@code streamGenerateContent}) so far. */
  List<Recorded> modelRequests() {
    return requests.stream().filter(request -> request.path().contains(":streamGenerateContent")).toList();
  }

  List<Recorded> requests() {
    return List.copyOf(requests);
  }

  @Override
  public void close() {
    closing.countDown();
    server.stop(0);
    executor.shutdownNow();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      String path = exchange.getRequestURI().toString();
      requests.add(new Recorded(path, body));
      if (!path.contains(":streamGenerateContent")) {
        send(exchange, 404, "application/json", error(404, "the fake Gemini server has no " + path, "NOT_FOUND"));
        return;
      }
      Reply reply = replies.poll();
      if (reply == null) {
        send(exchange, 500, "application/json", error(500, "nothing scripted for model request " + modelRequests().size(), "INTERNAL"));
        return;
      }
      reply.answer(exchange);
    }
  }

  // ---- replies ------------------------------------------------------------------------------

  /** The model answers with text, one SSE event per piece, then finishes. */
  static Reply text(String... pieces) {
    return exchange -> {
      List<String> events = new ArrayList<>();
      for (int i = 0; i < pieces.length; i++) {
        events.add(chunk(part("text", pieces[i]), i == pieces.length - 1));
      }
      sse(exchange, events, 0);
    };
  }

  /** As {@link #text}, with {@code pauseMillis} between events (each arrives on its own). */
  static Reply pacedText(int pauseMillis, List<String> pieces) {
    return exchange -> {
      List<String> events = new ArrayList<>();
      for (int i = 0; i < pieces.size(); i++) {
        events.add(chunk(part("text", pieces.get(i)), i == pieces.size() - 1));
      }
      sse(exchange, events, pauseMillis);
    };
  }

  /** The model calls one function ({@code args} is a JSON object). */
  static Reply functionCall(String name, String args) {
    return exchange -> {
      ObjectNode call = Json.mapper().createObjectNode();
      call.put("name", name);
      call.set("args", Json.read(args, JsonNode.class));
      sse(exchange, List.of(chunk(part("functionCall", call), true)), 0);
    };
  }

  /**
   * The model calls the function it was offered whose name contains {@code nameContains} (Gemini names MCP
   * tools {@code mcp_SERVER_TOOL}), read from the request being answered.
   */
  Reply callOffered(String nameContains, String args) {
    return exchange -> {
      List<Recorded> asked = modelRequests();
      String name = null;
      for (JsonNode tool : asked.get(asked.size() - 1).json().path("tools")) {
        for (JsonNode declaration : tool.path("functionDeclarations")) {
          if (declaration.path("name").asText().contains(nameContains)) {
            name = declaration.path("name").asText();
          }
        }
      }
      if (name == null) {
        send(exchange, 500, "application/json", error(500, "the model was offered no function like " + nameContains, "INTERNAL"));
        return;
      }
      functionCall(name, args).answer(exchange);
    };
  }

  /** The API refuses the request (as Gemini does: {@code {"error": {code, message, status}}}). */
  static Reply apiError(int status, String message, String statusName) {
    return exchange -> send(exchange, status, "application/json", error(status, message, statusName));
  }

  /** Streams {@code firstPiece}, then holds the stream open until the client goes away or the test ends. */
  Reply stall(String firstPiece) {
    return exchange -> {
      exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
      exchange.sendResponseHeaders(200, 0);
      OutputStream out = exchange.getResponseBody();
      out.write(("data: " + chunk(part("text", firstPiece), false) + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
      try {
        while (!closing.await(100, TimeUnit.MILLISECONDS)) {
          out.write(": keep-alive\r\n\r\n".getBytes(StandardCharsets.UTF_8));
          out.flush(); // fails once the client has hung up
        }
      } catch (IOException | InterruptedException e) {
        // the client went away (cancelled) or the test ended
      }
    };
  }

  private static ObjectNode part(String kind, Object value) {
    ObjectNode part = Json.mapper().createObjectNode();
    if (value instanceof JsonNode node) {
      part.set(kind, node);
    } else {
      part.put(kind, String.valueOf(value));
    }
    return part;
  }

  private static String chunk(ObjectNode part, boolean last) {
    ObjectNode chunk = Json.mapper().createObjectNode();
    ObjectNode candidate = chunk.putArray("candidates").addObject();
    ObjectNode content = candidate.putObject("content");
    content.put("role", "model");
    ArrayNode parts = content.putArray("parts");
    parts.add(part);
    candidate.put("index", 0);
    if (last) {
      candidate.put("finishReason", "STOP");
      chunk.putObject("usageMetadata").put("promptTokenCount", 42).put("candidatesTokenCount", 7).put("totalTokenCount", 49);
    }
    chunk.put("modelVersion", "fake-gemini");
    return chunk.toString();
  }

  private static void sse(HttpExchange exchange, List<String> events, int pauseMillis) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
    exchange.sendResponseHeaders(200, 0);
    OutputStream out = exchange.getResponseBody();
    for (String event : events) {
      out.write(("data: " + event + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
      if (pauseMillis > 0) {
        try {
          Thread.sleep(pauseMillis); // pacing the fake model's stream, not waiting for a result
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  private static String error(int status, String message, String statusName) {
    ObjectNode error = Json.mapper().createObjectNode();
    error.putObject("error").put("code", status).put("message", message).put("status", statusName);
    return error.toString();
  }

  private static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", contentType);
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }
}
