package dev.roundhouse.drivers.codex;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.drivers.process.AgentProcess;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.process.ProcessLauncher;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One {@code codex app-server} child and its protocol: JSON-RPC shaped messages, one per line, without the
 * {@code "jsonrpc"} field. Our requests get ids of our own; the server's requests (approvals) carry ids of
 * the server's, answered with {@link #respond}. Responses to our requests complete their futures on the
 * reader thread; every other message (notifications, server requests) goes to an inbox the turn's thread
 * drains with {@link #next}, in the order the server wrote them. When the process ends, pending requests
 * fail and the inbox yields {@link Incoming#END}.
 *
 * <p>Thread-safe: {@link #send}-type methods may be called from any thread.
 */
final class AppServer implements AutoCloseable {

  /** A message from the server, with when its line was read (for latency figures). */
  record Incoming(JsonNode message, long readNanos) {
    /** The process ended: nothing more will come. */
    static final Incoming END = new Incoming(Json.mapper().nullNode(), 0);

    String method() {
      return message.path("method").asText("");
    }

    JsonNode params() {
      return message.path("params");
    }

    /** A request from the server (it has a method and an id), which must be answered. */
    boolean isRequest() {
      return message.has("id") && message.has("method");
    }
  }

  /** The server answered a request with an error. */
  static final class RequestFailed extends RoundhouseException {
    private static final long serialVersionUID = 1L;
    private final int errorCode;

    RequestFailed(String method, int errorCode, String message) {
      super("codex_request_failed", "codex refused " + method + ": " + message);
      this.errorCode = errorCode;
    }

    int errorCode() {
      return errorCode;
    }
  }

  private final AgentProcess process;
  private final AtomicLong nextId = new AtomicLong(1);
  private final Map<Long, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
  private final Map<Long, String> pendingMethods = new ConcurrentHashMap<>();
  private final BlockingQueue<Incoming> inbox = new LinkedBlockingQueue<>();
  private volatile boolean ended;

  private AppServer(AgentProcess process) {
    this.process = process;
  }

  /**
   * Starts {@code codex app-server} and reads its output.
   *
   * @throws RoundhouseException when the program cannot be started, naming it
   */
  static AppServer start(List<String> commandLine, Path directory, Map<String, String> environment) {
    return start(commandLine, directory, environment, ProcessLauncher.ownGroup());
  }

  /** As {@link #start(List, Path, Map)}, started through a turn's {@code launcher}. */
  static AppServer start(List<String> commandLine, Path directory, Map<String, String> environment, ProcessLauncher launcher) {
    AgentProcess process;
    try {
      process = AgentProcess.start("codex", commandLine, directory, environment, launcher);
    } catch (IOException e) {
      throw new RoundhouseException("codex_not_started", e.getMessage() + " (install it with `npm install -g @openai/codex`, or configure the codex command)");
    }
    AppServer server = new AppServer(process);
    process.readLines(server::accept, server::end);
    return server;
  }

  /** Sends a request; its answer completes the returned future (exceptionally with {@link RequestFailed}). */
  CompletableFuture<JsonNode> request(String method, JsonNode params) {
    long id = nextId.getAndIncrement();
    CompletableFuture<JsonNode> answer = new CompletableFuture<>();
    pending.put(id, answer);
    pendingMethods.put(id, method);
    ObjectNode message = Json.mapper().createObjectNode();
    message.put("id", id);
    message.put("method", method);
    message.set("params", params);
    if (ended) {
      failPending();
    } else {
      sendQuietly(message);
    }
    return answer;
  }

  /**
   * Sends a request and waits for its answer.
   *
   * @throws RequestFailed when the server answers with an error
   * @throws RoundhouseException when the process ends or {@code timeout} passes first
   */
  JsonNode call(String method, JsonNode params, Duration timeout) throws InterruptedException {
    return await(method, request(method, params), timeout);
  }

  /** Waits for a request's answer; see {@link #call}. */
  JsonNode await(String method, CompletableFuture<JsonNode> answer, Duration timeout) throws InterruptedException {
    try {
      return answer.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RoundhouseException failure) {
        throw failure;
      }
      throw new RoundhouseException("codex_failed", "codex failed on " + method + ": " + e.getCause());
    } catch (TimeoutException e) {
      throw new RoundhouseException("codex_timeout", "codex app-server did not answer " + method + " within " + timeout.toSeconds() + " s" + stderrSuffix());
    }
  }

  /** Sends a notification (no answer expected). */
  void notify(String method) {
    ObjectNode message = Json.mapper().createObjectNode();
    message.put("method", method);
    sendQuietly(message);
  }

  /** Answers the server's request {@code id} with {@code result}. */
  void respond(JsonNode id, JsonNode result) {
    ObjectNode message = Json.mapper().createObjectNode();
    message.set("id", id);
    message.set("result", result);
    sendQuietly(message);
  }

  /** Answers the server's request {@code id} with an error. */
  void respondError(JsonNode id, int code, String text) {
    ObjectNode message = Json.mapper().createObjectNode();
    message.set("id", id);
    message.putObject("error").put("code", code).put("message", text);
    sendQuietly(message);
  }

  /** The next notification or server request, waiting up to {@code timeout}; null when none came. */
  Incoming next(Duration timeout) throws InterruptedException {
    return inbox.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  boolean isAlive() {
    return !ended && process.isAlive();
  }

  long pid() {
    return process.pid();
  }

  /** What the process wrote to stderr last, or empty. */
  String stderrTail() {
    return process.stderrTail();
  }

  /**
   * Why the process is gone, for an error message: its exit code and the last lines of its stderr. Waits
   * briefly for the exit and for stderr to be read to its end.
   */
  String exitReport() {
    try {
      OptionalInt code = process.awaitExit(Duration.ofSeconds(2));
      process.awaitStderr(Duration.ofSeconds(1));
      return "codex app-server exited" + (code.isPresent() ? " with code " + code.getAsInt() : "") + stderrSuffix();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "codex app-server exited" + stderrSuffix();
    }
  }

  /** Resident memory of the whole process tree (the npm launcher and the native binary), in KiB. */
  long residentKibOfTree() {
    long total = Math.max(0, AgentProcess.residentKib(process.pid()));
    for (ProcessHandle child : ProcessHandle.of(process.pid()).map(h -> h.descendants().toList()).orElse(List.of())) {
      total += Math.max(0, AgentProcess.residentKib(child.pid()));
    }
    return total;
  }

  /** Ends the process group: SIGTERM, {@code grace}, SIGKILL. Returns once it is gone. */
  void terminate(Duration grace) {
    process.terminate(grace);
  }

  /** Closes stdin (the app-server exits when it sees the end), then makes sure the group is gone. */
  @Override
  public void close() {
    process.closeStdin();
    try {
      process.awaitExit(Duration.ofMillis(500));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    process.terminate(Duration.ofSeconds(1));
  }

  private String stderrSuffix() {
    String tail = process.stderrTail().lines()
        .filter(line -> !line.isBlank() && !line.contains("bubblewrap") && !line.contains("could not create PATH aliases"))
        .reduce((a, b) -> a + "\n" + b).orElse("");
    return tail.isEmpty() ? "" : "; stderr: " + tail;
  }

  private void sendQuietly(JsonNode message) {
    try {
      process.send(Json.write(message));
    } catch (java.io.UncheckedIOException e) {
      // the process is gone; the reader's end fails what is pending
    }
  }

  private void accept(String line) {
    long now = System.nanoTime();
    if (line.isBlank() || line.charAt(0) != '{') {
      return;
    }
    JsonNode message;
    try {
      message = Json.mapper().readTree(line);
    } catch (IOException e) {
      return; // not protocol: ignore
    }
    if (message.has("id") && !message.has("method")) {
      long id = message.path("id").asLong(-1);
      CompletableFuture<JsonNode> answer = pending.remove(id);
      String method = pendingMethods.remove(id);
      if (answer != null) {
        if (message.has("error")) {
          JsonNode error = message.path("error");
          answer.completeExceptionally(new RequestFailed(method, error.path("code").asInt(), error.path("message").asText("no message")));
        } else {
          answer.complete(message.path("result"));
        }
      }
      return;
    }
    inbox.add(new Incoming(message, now));
  }

  private void end() {
    ended = true;
    failPending();
    inbox.add(Incoming.END);
  }

  private void failPending() {
    for (Long id : List.copyOf(pending.keySet())) {
      CompletableFuture<JsonNode> answer = pending.remove(id);
      String method = pendingMethods.remove(id);
      if (answer != null) {
        answer.completeExceptionally(new RoundhouseException("codex_exited", exitReport() + " (while waiting for " + method + ")"));
      }
    }
  }
}
