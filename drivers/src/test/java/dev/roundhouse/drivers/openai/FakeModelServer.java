package dev.roundhouse.drivers.openai;

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
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A fake OpenAI-compatible server: real HTTP on 127.0.0.1, a free port, answering each request with the
 * next scripted {@link Reply} (whatever its path) and recording what it was sent. A request with no reply
 * scripted gets a 599 that names it, so a test that sends more than it scripted fails loudly.
 *
 * <p>Public (and in the drivers' test-jar) so other modules' end-to-end tests, such as the calendar
 * conversation's, script a model the same way.
 *
 * <p>Thread-safe; one per test, closed after it.
 */
public final class FakeModelServer implements AutoCloseable {

  /** What the server was sent. */
  public record Recorded(String method, String path, Map<String, List<String>> headers, String body) {
    public JsonNode json() {
      return Json.read(body, JsonNode.class);
    }

    public String header(String name) {
      List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
      return values == null || values.isEmpty() ? null : values.get(0);
    }
  }

  /** One scripted answer. */
  @FunctionalInterface
  public interface Reply {
    void answer(HttpExchange exchange) throws IOException;
  }

  /** Thrown from a handler to make the server drop the connection without finishing the response. */
  private static final class Drop extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Drop() {
      super("dropping the connection on purpose", null, false, false);
    }
  }

  private final HttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final BlockingQueue<Reply> replies = new LinkedBlockingQueue<>();
  private final List<Recorded> requests = new CopyOnWriteArrayList<>();
  private final List<CountDownLatch> stalls = new CopyOnWriteArrayList<>();

  private FakeModelServer() {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  public static FakeModelServer start() {
    return new FakeModelServer();
  }

  /** The base URL the driver is configured with: {@code http://127.0.0.1:port/v1}. */
  public String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
  }

  public FakeModelServer enqueue(Reply... scripted) {
    replies.addAll(List.of(scripted));
    return this;
  }

  public List<Recorded> requests() {
    return List.copyOf(requests);
  }

  public Recorded request(int index) {
    return requests.get(index);
  }

  private void handle(HttpExchange exchange) throws IOException {
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    Map<String, List<String>> headers = new java.util.HashMap<>();
    exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), List.copyOf(values)));
    requests.add(new Recorded(exchange.getRequestMethod(), exchange.getRequestURI().getPath(), headers, body));
    Reply reply = replies.poll();
    if (reply == null) {
      reply = status(599, "{\"error\":{\"message\":\"the fake server has no reply scripted for " + exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath() + "\"}}");
    }
    // Not closed when the reply throws: closing would end the response properly, and a Drop means to
    // leave it broken (the server then closes the connection).
    reply.answer(exchange);
    exchange.close();
  }

  @Override
  public void close() {
    stalls.forEach(CountDownLatch::countDown);
    server.stop(0);
    executor.shutdownNow();
    try {
      executor.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  // Replies

  /** 200, a server-sent event stream of these {@code data} payloads, then {@code [DONE]}. */
  public static Reply stream(String... payloads) {
    StringBuilder body = new StringBuilder();
    for (String payload : payloads) {
      body.append("data: ").append(payload).append("\n\n");
    }
    body.append("data: [DONE]\n\n");
    return raw(200, "text/event-stream", body.toString());
  }

  /** A status with a body and headers given as name, value, name, value. */
  public static Reply status(int status, String body, String... headerPairs) {
    return exchange -> {
      for (int i = 0; i < headerPairs.length; i += 2) {
        exchange.getResponseHeaders().add(headerPairs[i], headerPairs[i + 1]);
      }
      if (!exchange.getResponseHeaders().containsKey("Content-Type")) {
        exchange.getResponseHeaders().add("Content-Type", body.startsWith("{") ? "application/json" : "text/plain");
      }
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
      if (bytes.length > 0) {
        exchange.getResponseBody().write(bytes);
      }
    };
  }

  /** 200 with this content type and body, written as it is. */
  public static Reply raw(int status, String contentType, String body) {
    return exchange -> {
      exchange.getResponseHeaders().add("Content-Type", contentType);
      exchange.sendResponseHeaders(status, 0);
      OutputStream out = exchange.getResponseBody();
      out.write(body.getBytes(StandardCharsets.UTF_8));
      out.flush();
    };
  }

  /** 200 event-stream headers, {@code partial} of the body, then the connection drops. */
  public static Reply disconnectAfter(String partial) {
    return exchange -> {
      exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
      exchange.sendResponseHeaders(200, 0);
      OutputStream out = exchange.getResponseBody();
      out.write(partial.getBytes(StandardCharsets.UTF_8));
      out.flush();
      throw new Drop();
    };
  }

  /** The connection closes before any response byte. */
  public static Reply closeWithoutAnswer() {
    return exchange -> {
      throw new Drop();
    };
  }

  /** 200 event-stream headers and {@code partial}, then nothing until the server closes. */
  public Reply stall(String partial) {
    CountDownLatch latch = new CountDownLatch(1);
    stalls.add(latch);
    return exchange -> {
      exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
      exchange.sendResponseHeaders(200, 0);
      OutputStream out = exchange.getResponseBody();
      out.write(partial.getBytes(StandardCharsets.UTF_8));
      out.flush();
      try {
        latch.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      throw new Drop();
    };
  }

  // Chunks and bodies

  public static String textChunk(String text) {
    ObjectNode chunk = chunk();
    chunk.putArray("choices").addObject().put("index", 0).putObject("delta").put("content", text);
    return chunk.toString();
  }

  public static String toolCallChunk(int index, String id, String name, String argumentsFragment) {
    ObjectNode chunk = chunk();
    ObjectNode call = chunk.putArray("choices").addObject().put("index", 0).putObject("delta").putArray("tool_calls").addObject();
    call.put("index", index);
    if (id != null) {
      call.put("id", id).put("type", "function");
    }
    ObjectNode function = call.putObject("function");
    if (name != null) {
      function.put("name", name);
    }
    function.put("arguments", argumentsFragment);
    return chunk.toString();
  }

  public static String finishChunk(String reason) {
    ObjectNode chunk = chunk();
    ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
    choice.putObject("delta");
    choice.put("finish_reason", reason);
    return chunk.toString();
  }

  public static String usageChunk(long prompt, long completion) {
    ObjectNode chunk = chunk();
    chunk.putArray("choices");
    chunk.putObject("usage").put("prompt_tokens", prompt).put("completion_tokens", completion).put("total_tokens", prompt + completion);
    return chunk.toString();
  }

  /** A streamed text answer: the pieces, a finish chunk and a usage chunk. */
  public static Reply streamText(String... pieces) {
    List<String> payloads = new ArrayList<>();
    for (String piece : pieces) {
      payloads.add(textChunk(piece));
    }
    payloads.add(finishChunk("stop"));
    payloads.add(usageChunk(10, pieces.length));
    return stream(payloads.toArray(String[]::new));
  }

  /** A streamed answer that calls one tool, with the arguments split in two fragments. */
  public static Reply streamToolCall(String id, String name, String arguments) {
    int half = arguments.length() / 2;
    return stream(
        toolCallChunk(0, id, name, arguments.substring(0, half)),
        toolCallChunk(0, null, null, arguments.substring(half)),
        finishChunk("tool_calls"),
        usageChunk(20, 5));
  }

  /** A non-streamed completion with this text. */
  public static String completion(String text) {
    ObjectNode body = Json.mapper().createObjectNode();
    body.put("id", "chatcmpl-1").put("object", "chat.completion");
    ObjectNode choice = body.putArray("choices").addObject();
    choice.put("index", 0).put("finish_reason", "stop");
    choice.putObject("message").put("role", "assistant").put("content", text);
    body.putObject("usage").put("prompt_tokens", 7).put("completion_tokens", 3);
    return body.toString();
  }

  public static String models(String... ids) {
    ObjectNode body = Json.mapper().createObjectNode();
    body.put("object", "list");
    ArrayNode data = body.putArray("data");
    for (String id : ids) {
      data.addObject().put("id", id).put("object", "model");
    }
    return body.toString();
  }

  private static ObjectNode chunk() {
    ObjectNode chunk = Json.mapper().createObjectNode();
    chunk.put("id", "chatcmpl-1").put("object", "chat.completion.chunk").put("model", "test-model");
    return chunk;
  }
}
