package dev.roundhouse.drivers.claude;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A fake Anthropic Messages API on 127.0.0.1 (a free port) for the real {@code claude} CLI: each {@code
 * POST /v1/messages} is answered with the next scripted {@link Reply}, streamed as the API streams
 * ({@code message_start}, {@code content_block_start/delta/stop} for text, for {@code thinking} and for {@code
 * tool_use} with {@code input_json_delta}, {@code message_delta} with usage and stop reason, {@code message_stop}), or with
 * an error response. It records every request, accepts any role in {@code messages} (the CLI sends a
 * {@code system} entry), and answers a request with nothing scripted with a 400 that names it, so a test
 * that scripted too little fails loudly.
 *
 * <p>Thread-safe; one per test, closed after it.
 */
final class FakeAnthropicServer implements AutoCloseable {
  private static final Set<String> ROLES = Set.of("user", "assistant", "system");

  /** What the server was sent. */
  record Recorded(String path, Map<String, List<String>> headers, JsonNode body) {
    String header(String name) {
      List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
      return values == null || values.isEmpty() ? null : values.get(0);
    }

    /** The whole request as text, for "does it mention X" checks. */
    String text() {
      return body.toString();
    }

    /** The system prompt's text parts, joined. */
    String system() {
      StringBuilder text = new StringBuilder();
      JsonNode system = body.path("system");
      if (system.isTextual()) {
        return system.asText();
      }
      system.forEach(part -> text.append(part.path("text").asText()).append('\n'));
      return text.toString();
    }

    List<String> toolNames() {
      return body.path("tools").findValuesAsText("name");
    }
  }

  /** One scripted answer. */
  @FunctionalInterface
  interface Reply {
    void answer(HttpExchange exchange, JsonNode request) throws IOException;
  }

  private final HttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final BlockingQueue<Reply> replies = new LinkedBlockingQueue<>();
  private final List<Recorded> requests = new CopyOnWriteArrayList<>();
  private final List<CountDownLatch> stalls = new CopyOnWriteArrayList<>();
  private final List<String> unexpected = new CopyOnWriteArrayList<>();

  private FakeAnthropicServer() {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  static FakeAnthropicServer start() {
    return new FakeAnthropicServer();
  }

  /** What {@code ANTHROPIC_BASE_URL} is set to. */
  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  FakeAnthropicServer enqueue(Reply... scripted) {
    replies.addAll(List.of(scripted));
    return this;
  }

  List<Recorded> requests() {
    return List.copyOf(requests);
  }

  Recorded request(int index) {
    return requests.get(index);
  }

  /** Requests to anything but {@code POST /v1/messages}. */
  List<String> unexpected() {
    return List.copyOf(unexpected);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] raw = exchange.getRequestBody().readAllBytes();
      String path = exchange.getRequestURI().getPath();
      if (!exchange.getRequestMethod().equals("POST") || !path.equals("/v1/messages")) {
        unexpected.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
        send(exchange, 404, error("not_found_error", "the fake Anthropic server serves only POST /v1/messages"));
        return;
      }
      JsonNode body = Json.mapper().readTree(new String(raw, StandardCharsets.UTF_8));
      Map<String, List<String>> headers = new java.util.HashMap<>();
      exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), List.copyOf(values)));
      requests.add(new Recorded(path, headers, body));
      for (JsonNode message : body.path("messages")) {
        if (!ROLES.contains(message.path("role").asText())) {
          send(exchange, 400, error("invalid_request_error", "unknown role " + message.path("role")));
          return;
        }
      }
      Reply reply = replies.poll();
      if (reply == null) {
        send(exchange, 400, error("invalid_request_error", "the fake server has no reply scripted for request " + requests.size()));
        return;
      }
      reply.answer(exchange, body);
    }
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

  // ---- replies ----

  /** One content block of a streamed answer. */
  sealed interface Block {}

  /** A text block, streamed as one delta per chunk, {@code gapNanos} apart. */
  record Text(List<String> chunks, long gapNanos) implements Block {
    Text(List<String> chunks) {
      this(chunks, 0);
    }
  }

  /** A tool_use block whose input JSON streams in two {@code input_json_delta} fragments. */
  record ToolUse(String id, String name, String inputJson) implements Block {}

  /** A thinking block: its text in one {@code thinking_delta}, then a {@code signature_delta}. */
  record Thinking(String text) implements Block {}

  static Block text(String... chunks) {
    return new Text(List.of(chunks));
  }

  static Block toolUse(String id, String name, String inputJson) {
    return new ToolUse(id, name, inputJson);
  }

  static Block thinking(String text) {
    return new Thinking(text);
  }

  /** A streamed answer with these blocks; the stop reason is {@code tool_use} when one is a tool use. */
  static Reply answer(Block... blocks) {
    return (exchange, request) -> {
      SseWriter out = SseWriter.open(exchange);
      writeAnswer(out, request, List.of(blocks), true);
    };
  }

  /** A text answer whose chunks stream {@code gap} apart, as a model's tokens do. */
  static Reply pacedAnswer(java.time.Duration gap, String... chunks) {
    return answer(new Text(List.of(chunks), gap.toNanos()));
  }

  /** A streamed text answer of these chunks. */
  static Reply answer(String... chunks) {
    return answer(text(chunks));
  }

  /** An API error: the status and an Anthropic error body. */
  static Reply failure(int status, String type, String message) {
    return (exchange, request) -> send(exchange, status, error(type, message));
  }

  /** Streams {@code chunks} of a text block, then nothing until the server closes (or the client leaves). */
  Reply stall(String... chunks) {
    CountDownLatch latch = new CountDownLatch(1);
    stalls.add(latch);
    return (exchange, request) -> {
      SseWriter out = SseWriter.open(exchange);
      writeAnswer(out, request, List.of(new Text(List.of(chunks))), false);
      try {
        latch.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
  }

  private static void writeAnswer(SseWriter out, JsonNode request, List<Block> blocks, boolean finish) throws IOException {
    ObjectNode start = Json.mapper().createObjectNode();
    start.put("type", "message_start");
    ObjectNode message = start.putObject("message");
    message.put("id", "msg_fake_" + Long.toHexString(System.nanoTime())).put("type", "message").put("role", "assistant");
    message.put("model", request.path("model").asText("claude-test"));
    message.putArray("content");
    message.putNull("stop_reason");
    message.putNull("stop_sequence");
    message.putObject("usage").put("input_tokens", 100).put("output_tokens", 1);
    out.event("message_start", start);
    boolean toolUse = false;
    for (int index = 0; index < blocks.size(); index++) {
      Block block = blocks.get(index);
      ObjectNode blockStart = Json.mapper().createObjectNode();
      blockStart.put("type", "content_block_start").put("index", index);
      switch (block) {
        case Text text -> {
          blockStart.putObject("content_block").put("type", "text").put("text", "");
          out.event("content_block_start", blockStart);
          long next = System.nanoTime();
          for (String chunk : text.chunks()) {
            if (text.gapNanos() > 0) {
              next += text.gapNanos();
              java.util.concurrent.locks.LockSupport.parkNanos(next - System.nanoTime());
            }
            out.event("content_block_delta", delta(index, "text_delta", "text", chunk));
          }
        }
        case ToolUse tool -> {
          toolUse = true;
          ObjectNode content = blockStart.putObject("content_block");
          content.put("type", "tool_use").put("id", tool.id()).put("name", tool.name());
          content.putObject("input");
          out.event("content_block_start", blockStart);
          int half = tool.inputJson().length() / 2;
          out.event("content_block_delta", delta(index, "input_json_delta", "partial_json", tool.inputJson().substring(0, half)));
          out.event("content_block_delta", delta(index, "input_json_delta", "partial_json", tool.inputJson().substring(half)));
        }
        case Thinking thinking -> {
          blockStart.putObject("content_block").put("type", "thinking").put("thinking", "").put("signature", "");
          out.event("content_block_start", blockStart);
          out.event("content_block_delta", delta(index, "thinking_delta", "thinking", thinking.text()));
          out.event("content_block_delta", delta(index, "signature_delta", "signature", "sig_fake"));
        }
      }
      if (!finish && index == blocks.size() - 1) {
        return;
      }
      ObjectNode stop = Json.mapper().createObjectNode();
      stop.put("type", "content_block_stop").put("index", index);
      out.event("content_block_stop", stop);
    }
    ObjectNode messageDelta = Json.mapper().createObjectNode();
    messageDelta.put("type", "message_delta");
    messageDelta.putObject("delta").put("stop_reason", toolUse ? "tool_use" : "end_turn").putNull("stop_sequence");
    messageDelta.putObject("usage").put("output_tokens", 20);
    out.event("message_delta", messageDelta);
    ObjectNode messageStop = Json.mapper().createObjectNode();
    messageStop.put("type", "message_stop");
    out.event("message_stop", messageStop);
  }

  private static ObjectNode delta(int index, String type, String field, String value) {
    ObjectNode event = Json.mapper().createObjectNode();
    event.put("type", "content_block_delta").put("index", index);
    event.putObject("delta").put("type", type).put(field, value);
    return event;
  }

  static String error(String type, String message) {
    ObjectNode body = Json.mapper().createObjectNode();
    body.put("type", "error");
    body.putObject("error").put("type", type).put("message", message);
    return body.toString();
  }

  private static void send(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.getResponseHeaders().add("request-id", "req_fake_error");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  /** Server-sent events, flushed one by one. */
  static final class SseWriter {
    private final OutputStream out;

    private SseWriter(OutputStream out) {
      this.out = out;
    }

    static SseWriter open(HttpExchange exchange) throws IOException {
      exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
      exchange.getResponseHeaders().add("request-id", "req_fake_" + Long.toHexString(System.nanoTime()));
      exchange.sendResponseHeaders(200, 0);
      return new SseWriter(exchange.getResponseBody());
    }

    void event(String name, JsonNode data) throws IOException {
      out.write(("event: " + name + "\ndata: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
    }
  }

  /** Chunks for a long streamed answer: {@code count} deltas of {@code each}. */
  static String[] chunks(int count, String each) {
    List<String> chunks = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      chunks.add(each);
    }
    return chunks.toArray(String[]::new);
  }
}
