package dev.roundhouse.drivers.codex;

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
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fake of the OpenAI Responses API as Codex uses it: real HTTP on 127.0.0.1 and a free port, {@code POST
 * /v1/responses} answered with the next scripted {@link Reply} as a server-sent event stream
 * ({@code response.created}, {@code response.output_item.added}, {@code response.output_text.delta}, {@code
 * response.output_item.done}, {@code response.completed} with usage), or an HTTP error, or nothing at all (a
 * hanging endpoint). Records every request body. A request with nothing scripted gets a 400 naming it, so
 * a test that sends more than it scripted fails loudly.
 *
 * <p>Thread-safe; one per test, closed after it.
 */
final class FakeResponsesServer implements AutoCloseable {
  /** Usage every streamed response reports. */
  static final int INPUT_TOKENS = 1200;
  static final int CACHED_TOKENS = 200;
  static final int OUTPUT_TOKENS = 30;

  @FunctionalInterface
  interface Reply {
    void answer(HttpExchange exchange, Stream stream) throws IOException;
  }

  /** Writes server-sent events; the 200 headers go out with the first one. */
  static final class Stream {
    private final OutputStream out;
    private final String responseId;

    Stream(OutputStream out, String responseId) {
      this.out = out;
      this.responseId = responseId;
    }

    void event(String type, ObjectNode data) throws IOException {
      data.put("type", type);
      out.write(("event: " + type + "\ndata: " + Json.write(data) + "\n\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
    }

    void created() throws IOException {
      ObjectNode data = Json.mapper().createObjectNode();
      data.putObject("response").put("id", responseId).put("status", "in_progress");
      event("response.created", data);
    }

    void item(ObjectNode item) throws IOException {
      item(item, 0);
    }

    void item(ObjectNode item, int outputIndex) throws IOException {
      ObjectNode added = Json.mapper().createObjectNode().put("output_index", outputIndex);
      added.set("item", item);
      event("response.output_item.added", added);
      ObjectNode done = Json.mapper().createObjectNode().put("output_index", outputIndex);
      done.set("item", item);
      event("response.output_item.done", done);
    }

    void completed() throws IOException {
      ObjectNode data = Json.mapper().createObjectNode();
      ObjectNode response = data.putObject("response").put("id", responseId).put("status", "completed");
      ObjectNode usage = response.putObject("usage");
      usage.put("input_tokens", INPUT_TOKENS);
      usage.putObject("input_tokens_details").put("cached_tokens", CACHED_TOKENS);
      usage.put("output_tokens", OUTPUT_TOKENS);
      usage.putObject("output_tokens_details").put("reasoning_tokens", 0);
      usage.put("total_tokens", INPUT_TOKENS + OUTPUT_TOKENS);
      event("response.completed", data);
    }
  }

  private final HttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final BlockingQueue<Reply> replies = new LinkedBlockingQueue<>();
  private final List<JsonNode> requests = new CopyOnWriteArrayList<>();
  private final CountDownLatch closing = new CountDownLatch(1);
  private final AtomicInteger counter = new AtomicInteger();
  private volatile Reply fallback;

  private FakeResponsesServer() {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  static FakeResponsesServer start() {
    return new FakeResponsesServer();
  }

  /** The base URL Codex's provider points at, such as {@code http://127.0.0.1:41234/v1}. */
  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
  }

  /** Answers every request that has nothing scripted with {@code reply} (an endpoint that always fails, say). */
  FakeResponsesServer otherwise(Reply reply) {
    fallback = reply;
    return this;
  }

  FakeResponsesServer enqueue(Reply... next) {
    replies.addAll(List.of(next));
    return this;
  }

  List<JsonNode> requests() {
    return List.copyOf(requests);
  }

  JsonNode request(int index) {
    return requests.get(index);
  }

  /** Assistant text streamed as these deltas. */
  static Reply text(String... deltas) {
    return (exchange, stream) -> {
      stream.created();
      streamMessage(stream, "msg_" + System.nanoTime(), deltas);
      stream.completed();
    };
  }

  /** Assistant text streamed as these deltas, {@code gap} apart (as a model streams them). */
  static Reply pacedText(java.time.Duration gap, String... deltas) {
    return (exchange, stream) -> {
      stream.created();
      String id = "msg_paced";
      ObjectNode message = Json.mapper().createObjectNode().put("type", "message").put("id", id).put("role", "assistant").put("status", "in_progress");
      message.putArray("content");
      ObjectNode added = Json.mapper().createObjectNode().put("output_index", 0);
      added.set("item", message);
      stream.event("response.output_item.added", added);
      for (String delta : deltas) {
        stream.event("response.output_text.delta", Json.mapper().createObjectNode()
            .put("item_id", id).put("output_index", 0).put("content_index", 0).put("delta", delta));
        try {
          Thread.sleep(gap); // pacing the fake model's stream, not waiting for an event
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
      ObjectNode done = message.deepCopy().put("status", "completed");
      done.putArray("content").addObject().put("type", "output_text").put("text", String.join("", deltas)).putArray("annotations");
      ObjectNode finished = Json.mapper().createObjectNode().put("output_index", 0);
      finished.set("item", done);
      stream.event("response.output_item.done", finished);
      stream.completed();
    };
  }

  /** The first delta, then nothing (headers sent, connection open) until the server closes. */
  Reply stallAfter(String firstDelta) {
    return (exchange, stream) -> {
      stream.created();
      String id = "msg_stall";
      ObjectNode message = Json.mapper().createObjectNode().put("type", "message").put("id", id).put("role", "assistant").put("status", "in_progress");
      message.putArray("content");
      ObjectNode added = Json.mapper().createObjectNode().put("output_index", 0);
      added.set("item", message);
      stream.event("response.output_item.added", added);
      stream.event("response.output_text.delta", Json.mapper().createObjectNode()
          .put("item_id", id).put("output_index", 0).put("content_index", 0).put("delta", firstDelta));
      awaitClose();
    };
  }

  /** A call of Codex's shell tool ({@code exec_command}). */
  static Reply shell(String callId, String command) {
    return (exchange, stream) -> {
      stream.created();
      stream.item(functionCall(callId, null, "exec_command", Json.write(Json.mapper().createObjectNode().put("cmd", command))));
      stream.completed();
    };
  }

  /**
   * The model reasons (a {@code reasoning} item whose summary is {@code summary}, streamed as a summary part
   * and its text delta), then calls Codex's {@code update_plan} tool with {@code planJson} (its arguments:
   * {@code {explanation?, plan: [{step, status}]}}).
   */
  static Reply reasonThenPlan(String summary, String callId, String planJson) {
    return (exchange, stream) -> {
      stream.created();
      String id = "rs_" + callId;
      ObjectNode reasoning = Json.mapper().createObjectNode().put("type", "reasoning").put("id", id);
      reasoning.putArray("summary");
      ObjectNode added = Json.mapper().createObjectNode().put("output_index", 0);
      added.set("item", reasoning);
      stream.event("response.output_item.added", added);
      stream.event("response.reasoning_summary_part.added", Json.mapper().createObjectNode()
          .put("item_id", id).put("output_index", 0).put("summary_index", 0));
      stream.event("response.reasoning_summary_text.delta", Json.mapper().createObjectNode()
          .put("item_id", id).put("output_index", 0).put("summary_index", 0).put("delta", summary));
      ObjectNode done = reasoning.deepCopy();
      done.putArray("summary").addObject().put("type", "summary_text").put("text", summary);
      ObjectNode finished = Json.mapper().createObjectNode().put("output_index", 0);
      finished.set("item", done);
      stream.event("response.output_item.done", finished);
      stream.item(functionCall(callId, null, "update_plan", planJson), 1);
      stream.completed();
    };
  }

  /** A call of Codex's {@code apply_patch} tool (a freeform "custom" tool). */
  static Reply patch(String callId, String patch) {
    return (exchange, stream) -> {
      stream.created();
      stream.item(Json.mapper().createObjectNode().put("type", "custom_tool_call").put("id", "ctc_" + callId)
          .put("call_id", callId).put("name", "apply_patch").put("input", patch).put("status", "completed"));
      stream.completed();
    };
  }

  /** A call of tool {@code name} of MCP server {@code server} (Codex names them {@code mcp__<server>}). */
  static Reply mcpCall(String callId, String server, String name, String argumentsJson) {
    return (exchange, stream) -> {
      stream.created();
      stream.item(functionCall(callId, "mcp__" + server, name, argumentsJson));
      stream.completed();
    };
  }

  /** An HTTP error with an OpenAI-style JSON body. */
  static Reply error(int status, String message) {
    return (exchange, stream) -> {
      ObjectNode body = Json.mapper().createObjectNode();
      body.putObject("error").put("message", message).put("type", "invalid_request_error");
      byte[] bytes = Json.write(body).getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, bytes.length);
      exchange.getResponseBody().write(bytes);
    };
  }

  /** Reads the request and never answers (no headers, no bytes) until the server closes: a hung endpoint. */
  Reply hang() {
    return (exchange, stream) -> awaitClose();
  }

  private static ObjectNode functionCall(String callId, String namespace, String name, String arguments) {
    ObjectNode call = Json.mapper().createObjectNode().put("type", "function_call").put("id", "fc_" + callId).put("call_id", callId);
    if (namespace != null) {
      call.put("namespace", namespace);
    }
    return call.put("name", name).put("arguments", arguments).put("status", "completed");
  }

  private static void streamMessage(Stream stream, String id, String[] deltas) throws IOException {
    ObjectNode message = Json.mapper().createObjectNode().put("type", "message").put("id", id).put("role", "assistant").put("status", "in_progress");
    message.putArray("content");
    ObjectNode added = Json.mapper().createObjectNode().put("output_index", 0);
    added.set("item", message);
    stream.event("response.output_item.added", added);
    for (String delta : deltas) {
      stream.event("response.output_text.delta", Json.mapper().createObjectNode()
          .put("item_id", id).put("output_index", 0).put("content_index", 0).put("delta", delta));
    }
    ObjectNode done = message.deepCopy().put("status", "completed");
    done.putArray("content").addObject().put("type", "output_text").put("text", String.join("", deltas)).putArray("annotations");
    ObjectNode finished = Json.mapper().createObjectNode().put("output_index", 0);
    finished.set("item", done);
    stream.event("response.output_item.done", finished);
  }

  private void awaitClose() {
    try {
      closing.await(2, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body = exchange.getRequestBody().readAllBytes();
      if (!exchange.getRequestMethod().equals("POST") || !exchange.getRequestURI().getPath().endsWith("/responses")) {
        exchange.sendResponseHeaders(404, -1);
        return;
      }
      requests.add(Json.mapper().readTree(body));
      Reply reply = replies.poll();
      if (reply == null) {
        reply = fallback;
      }
      if (reply == null) {
        error(400, "the fake model server has no reply scripted for request " + requests.size()).answer(exchange, null);
        return;
      }
      String responseId = "resp_" + counter.incrementAndGet();
      // Error and hang replies write (or withhold) their own headers; streams get 200 with chunked events.
      reply.answer(exchange, new Stream(new HeaderOnFirstWrite(exchange), responseId));
    } catch (IOException e) {
      // the client went away (a stopped turn): nothing to answer
    }
  }

  /** Sends the 200 event-stream headers on the first write. */
  private static final class HeaderOnFirstWrite extends OutputStream {
    private final HttpExchange exchange;
    private OutputStream body;

    HeaderOnFirstWrite(HttpExchange exchange) {
      this.exchange = exchange;
    }

    private OutputStream body() throws IOException {
      if (body == null) {
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        body = exchange.getResponseBody();
      }
      return body;
    }

    @Override
    public void write(int b) throws IOException {
      body().write(b);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      body().write(bytes, offset, length);
    }

    @Override
    public void flush() throws IOException {
      body().flush();
    }
  }

  @Override
  public void close() {
    closing.countDown();
    server.stop(0);
    executor.shutdownNow();
  }
}
