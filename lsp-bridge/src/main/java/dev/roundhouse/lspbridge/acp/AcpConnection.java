package dev.roundhouse.lspbridge.acp;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.BoundedLines;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hubclient.HubErrorException;
import dev.roundhouse.lspbridge.internal.MessageHead;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import dev.roundhouse.hub.core.Locks;

/**
 * JSON-RPC 2.0 over newline-delimited JSON, both ways, as ACP frames it: one message per line, UTF-8. The
 * messages' params and results are the ACP SDK's schema records (written by {@link AcpJson}); the framing
 * is ours, not the SDK's {@code StdioAcpAgentTransport}: that transport stops reading at the first line
 * that is not JSON (here it gets -32700 and the connection goes on), and the SDK's agent runs one prompt
 * per connection at a time, across all sessions (here each session prompts on its own thread).
 *
 * <p>Incoming requests and notifications run on {@code executor} (one virtual thread each), so a long
 * {@code session/prompt} never blocks the reader; responses to our own requests complete their futures on
 * the reader thread. Nothing the peer sends ends the connection: a line that is not JSON is answered with
 * -32700, a message that is not a request, notification or response with -32600, an unknown request
 * method with -32601; an unknown notification is ignored; a line past {@link #MAX_LINE} bytes is refused
 * with -32600 and read away without being held ({@link BoundedLines}). Only the end of the input ends
 * {@link #run}.
 *
 * <p>Thread-safety: {@link #request}, {@link #notify} and answers may be called from any thread. Writes are
 * serialised by {@code writeLock}, which guards only the write of one line to the output (never a handler
 * call); pending requests live in a concurrent map.
 */
final class AcpConnection {

  /** What serves the peer's messages. Called on the connection's executor. */
  interface Handler {
    /**
     * Answers a request with a result (an ACP SDK schema record, or a JSON tree), or throws
     * {@link AcpError} (or any {@link RoundhouseException}).
     */
    Object request(String method, JsonNode params);

    /** Takes a notification; unknown ones are ignored. */
    void notification(String method, JsonNode params);

    /**
     * Called once when the input has ended, before the connection waits for the requests already read:
     * whatever waits on the client (a prompt following its turn) should stop waiting and answer.
     */
    default void inputEnded() {}

    /** Called once a request's result has been written (so what follows reaches the client after it), with it as JSON. */
    default void answered(String method, JsonNode params, JsonNode result) {}
  }

  /** The longest line read, in bytes (16 MiB): a longer one is refused and skipped, never held. */
  static final int MAX_LINE = 16 << 20;

  /** How long the end of the input waits for the requests already read to be answered. */
  static final Duration DRAIN = Duration.ofSeconds(30);

  private final InputStream in;
  @GuardedBy("writeLock")
  private final OutputStream out;
  private final ExecutorService executor;
  private final ReentrantLock writeLock = Locks.tracked("acp-output");
  private final Map<String, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
  private final AtomicLong nextId = new AtomicLong(1);
  /** The peer's requests read and not yet answered: each completes once its answer is written. */
  private final Set<CompletableFuture<Void>> unanswered = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  AcpConnection(InputStream in, OutputStream out, ExecutorService executor) {
    this.in = in;
    this.out = out;
    this.executor = executor;
  }

  /**
   * Reads and dispatches messages until the input ends. Then our pending requests to the client fail (it
   * can no longer answer them), {@link Handler#inputEnded} is called, and this returns once every request
   * read has been answered, or after {@link #DRAIN}.
   */
  void run(Handler handler) {
    try (InputStream input = in) {
      BoundedLines lines = new BoundedLines(input, MAX_LINE, MessageHead.PREFIX);
      for (BoundedLines.Line line; (line = lines.next()) != null; ) {
        if (line instanceof BoundedLines.TooLong tooLong) {
          refuse(tooLong);
        } else if (line instanceof BoundedLines.Text(String text) && !text.isBlank()) {
          dispatch(text, handler);
        }
      }
    } catch (IOException e) {
      // the client went away: same as the end of the input
    } finally {
      closed = true;
      AcpError gone = new AcpError(AcpError.INTERNAL_ERROR, "the ACP client closed the connection");
      pending.values().forEach(future -> future.completeExceptionally(gone));
      pending.clear();
      handler.inputEnded();
      awaitAnswers();
    }
  }

  /**
   * Refuses a line past {@link #MAX_LINE}: a request (its id and method found in the line's first bytes) is
   * answered with -32600 and its id, a line whose id cannot be read with -32600 and a null id, a notification
   * or a response not at all; each is said on stderr.
   */
  private void refuse(BoundedLines.TooLong line) {
    MessageHead head = MessageHead.of(line.prefix(), line.prefix().length);
    String what = head.method().map(method -> " (" + method + (head.id().isPresent() ? " request " + head.id().get() : "") + ")").orElse("");
    boolean answered = head.isRequest() || head.id().isEmpty() && head.method().isEmpty();
    System.err.println("roundhouse acp: refused a line of " + line.length() + " bytes" + what + ", at most " + MAX_LINE + " are read" + (answered ? "; answered -32600" : "") + "; skipped it");
    if (answered) {
      sendError(head.id().orElse(NullNode.getInstance()), new AcpError(AcpError.INVALID_REQUEST,
          "the message is " + line.length() + " bytes long; roundhouse acp accepts at most " + MAX_LINE + " bytes (" + (MAX_LINE >> 20) + " MiB) per line"));
    }
  }

  private void awaitAnswers() {
    try {
      CompletableFuture.allOf(unanswered.toArray(CompletableFuture<?>[]::new)).get(DRAIN.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      System.err.println("roundhouse acp: " + unanswered.size() + " request(s) still unanswered " + DRAIN.toSeconds() + " s after the end of the input; exiting without their answers");
    } catch (ExecutionException e) {
      // never: each completes normally once its answer is written (or could not be)
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void dispatch(String line, Handler handler) {
    JsonNode message;
    try {
      message = Json.mapper().readTree(line);
    } catch (JsonProcessingException e) {
      sendError(NullNode.getInstance(), new AcpError(AcpError.PARSE_ERROR, "not JSON: " + e.getOriginalMessage()));
      return;
    }
    if (message == null || !message.isObject()) {
      sendError(NullNode.getInstance(), new AcpError(AcpError.INVALID_REQUEST, "a JSON-RPC message is a JSON object"));
      return;
    }
    JsonNode id = message.get("id");
    boolean hasId = id != null && (id.isTextual() || id.isIntegralNumber());
    JsonNode method = message.get("method");
    if (method == null) {
      if (hasId && (message.has("result") || message.has("error"))) {
        response(id.asText(), message);
        return;
      }
      sendError(hasId ? id : NullNode.getInstance(), new AcpError(AcpError.INVALID_REQUEST, "a JSON-RPC message needs a method (or, as a response, an id and a result or error)"));
      return;
    }
    if (!method.isTextual() || (id != null && !id.isNull() && !hasId)) {
      sendError(hasId ? id : NullNode.getInstance(), new AcpError(AcpError.INVALID_REQUEST, "method must be a string and id a string or an integer"));
      return;
    }
    JsonNode params = message.hasNonNull("params") ? message.get("params") : JsonNodeFactory.instance.objectNode();
    String name = method.asText();
    if (!hasId) {
      executor.execute(() -> {
        try {
          handler.notification(name, params);
        } catch (RuntimeException e) {
          System.err.println("roundhouse acp: notification " + name + " failed: " + e);
        }
      });
      return;
    }
    CompletableFuture<Void> answeredOrFailed = new CompletableFuture<>();
    unanswered.add(answeredOrFailed);
    executor.execute(() -> {
      try {
        JsonNode result = AcpJson.tree(handler.request(name, params));
        ObjectNode answer = Json.mapper().createObjectNode();
        answer.put("jsonrpc", "2.0");
        answer.set("id", id);
        answer.set("result", result == null ? NullNode.getInstance() : result);
        write(answer);
        handler.answered(name, params, result);
      } catch (AcpError e) {
        sendError(id, e);
      } catch (HubErrorException e) {
        int code = e.status() == 400 || e.status() == 404 ? AcpError.INVALID_PARAMS : AcpError.INTERNAL_ERROR;
        ObjectNode data = Json.mapper().createObjectNode().put("roundhouse_code", e.code()).put("http_status", e.status());
        sendError(id, new AcpError(code, e.getMessage(), data));
      } catch (RoundhouseException e) {
        sendError(id, new AcpError(AcpError.INTERNAL_ERROR, e.getMessage(), Json.mapper().createObjectNode().put("roundhouse_code", e.code())));
      } catch (RuntimeException e) {
        sendError(id, new AcpError(AcpError.INTERNAL_ERROR, name + " failed: " + e));
      } finally {
        unanswered.remove(answeredOrFailed);
        answeredOrFailed.complete(null);
      }
    });
  }

  private void response(String id, JsonNode message) {
    CompletableFuture<JsonNode> future = pending.remove(id);
    if (future == null) {
      return; // an answer nobody waits for (a late one): dropped
    }
    JsonNode error = message.get("error");
    if (error != null && !error.isNull()) {
      future.completeExceptionally(new AcpError(error.path("code").asInt(AcpError.INTERNAL_ERROR), error.path("message").asText("the client answered with an error"), error.get("data")));
    } else {
      future.complete(message.get("result"));
    }
  }

  /**
   * Sends a request to the client; the future completes with its result or an {@link AcpError}.
   *
   * @param params an ACP SDK schema record, or a JSON tree
   */
  CompletableFuture<JsonNode> request(String method, Object params) {
    String id = "rh-" + nextId.getAndIncrement();
    CompletableFuture<JsonNode> future = new CompletableFuture<>();
    if (closed) {
      future.completeExceptionally(new AcpError(AcpError.INTERNAL_ERROR, "the ACP client closed the connection"));
      return future;
    }
    pending.put(id, future);
    ObjectNode message = Json.mapper().createObjectNode();
    message.put("jsonrpc", "2.0");
    message.put("id", id);
    message.put("method", method);
    message.set("params", AcpJson.tree(params));
    try {
      write(message);
    } catch (UncheckedIOException e) {
      pending.remove(id);
      future.completeExceptionally(new AcpError(AcpError.INTERNAL_ERROR, "could not write to the ACP client: " + e.getMessage()));
    }
    return future;
  }

  /**
   * Sends a notification to the client. A client that went away is not an error here.
   *
   * @param params an ACP SDK schema record, or a JSON tree
   */
  void notify(String method, Object params) {
    ObjectNode message = Json.mapper().createObjectNode();
    message.put("jsonrpc", "2.0");
    message.put("method", method);
    message.set("params", AcpJson.tree(params));
    try {
      write(message);
    } catch (UncheckedIOException e) {
      // the client is gone; the reader sees the end of its input
    }
  }

  private void sendError(JsonNode id, AcpError error) {
    ObjectNode message = Json.mapper().createObjectNode();
    message.put("jsonrpc", "2.0");
    message.set("id", id);
    ObjectNode body = message.putObject("error");
    body.put("code", error.rpcCode());
    body.put("message", error.getMessage());
    if (error.data() != null) {
      body.set("data", error.data());
    }
    try {
      write(message);
    } catch (UncheckedIOException e) {
      // the client is gone
    }
  }

  private void write(JsonNode message) {
    byte[] line;
    try {
      line = (Json.mapper().writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write a JSON tree", e);
    }
    writeLock.lock();
    try {
      out.write(line);
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      writeLock.unlock();
    }
  }
}
