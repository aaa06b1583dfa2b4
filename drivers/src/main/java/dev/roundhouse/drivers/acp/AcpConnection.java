package dev.roundhouse.drivers.acp;

import com.agentclientprotocol.sdk.json.TypeRef;
import com.agentclientprotocol.sdk.spec.AcpClientSession;
import com.agentclientprotocol.sdk.spec.AcpSchema;
import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.drivers.process.AgentProcess;
import dev.roundhouse.hub.spi.TurnStoppedException;
import dev.roundhouse.hub.process.ProcessLauncher;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * One running ACP agent and the SDK's client session on it: requests with deadlines, notifications, the
 * agent's session updates and permission requests handed to whoever listens now, and failures turned into
 * sentences that name the agent (with its stderr when it exited, scrubbed of the hub's secrets).
 *
 * <p>Session updates are delivered on the agent's stdout reader thread, in order; permission requests on a
 * virtual thread each, so a request parked on a human never holds up the updates behind it.
 *
 * <p>Thread-safe.
 */
final class AcpConnection implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AcpConnection.class);
  private static final TypeRef<JsonNode> JSON = new TypeRef<>() {};
  /** The SDK times out every request; a prompt may wait on humans for hours, so its deadline is ours. */
  private static final Duration SDK_TIMEOUT = Duration.ofDays(7);
  private static final Scheduler REQUESTS = Schedulers.fromExecutor(task -> Thread.ofVirtual().name("acp-agent-request").start(task));
  static final AcpSchema.RequestPermissionResponse CANCELLED =
      new AcpSchema.RequestPermissionResponse(new AcpSchema.PermissionCancelled());

  private final String name;
  private final AgentProcess process;
  private final ProcessTransport transport;
  private final List<String> secrets;
  private final AtomicBoolean ended = new AtomicBoolean();
  private volatile AcpClientSession session;
  private volatile Consumer<AcpSchema.SessionNotification> updates = update -> {};
  private volatile Function<AcpSchema.RequestPermissionRequest, AcpSchema.RequestPermissionResponse> permissions = request -> CANCELLED;

  private AcpConnection(String name, AgentProcess process, LineObserver observer, List<String> secrets) {
    this.name = name;
    this.process = process;
    this.secrets = List.copyOf(secrets);
    this.transport = new ProcessTransport(process, name, observer, this::stdoutEnded);
    AcpClientSession.RequestHandler<AcpSchema.RequestPermissionResponse> permission =
        params -> Mono.fromCallable(() -> permissions.apply(AcpJson.convert(params, AcpSchema.RequestPermissionRequest.class)))
            .subscribeOn(REQUESTS);
    Map<String, AcpClientSession.RequestHandler<?>> requests = Map.of(AcpSchema.METHOD_SESSION_REQUEST_PERMISSION, permission);
    Map<String, AcpClientSession.NotificationHandler> notifications =
        Map.of(AcpSchema.METHOD_SESSION_UPDATE, params -> Mono.fromRunnable(() -> update(params)));
    this.session = new AcpClientSession(SDK_TIMEOUT, transport, requests, notifications, Function.identity());
    if (ended.get()) {
      session.close();
    }
  }

  /**
   * Starts the agent.
   *
   * @param secrets strings that must never appear in what this connection reports (the MCP token)
   * @throws AcpAgentException when the program cannot be started
   */
  static AcpConnection start(
      String name, List<String> commandLine, Path directory, Map<String, String> environment, LineObserver observer, List<String> secrets) {
    return start(name, commandLine, directory, environment, observer, secrets, ProcessLauncher.ownGroup());
  }

  /** As the other {@code start}, through a turn's {@code launcher}. */
  static AcpConnection start(String name, List<String> commandLine, Path directory, Map<String, String> environment,
      LineObserver observer, List<String> secrets, ProcessLauncher launcher) {
    try {
      return new AcpConnection(name, AgentProcess.start(name, commandLine, directory, environment, launcher), observer, secrets);
    } catch (IOException e) {
      throw new AcpAgentException(e.getMessage());
    }
  }

  /** Where the agent's session updates go from now on (on the reader thread, in order). */
  void onUpdate(Consumer<AcpSchema.SessionNotification> listener) {
    this.updates = listener;
  }

  /** Who answers the agent's permission requests from now on (on a virtual thread per request). */
  void onPermission(Function<AcpSchema.RequestPermissionRequest, AcpSchema.RequestPermissionResponse> answerer) {
    this.permissions = answerer;
  }

  /** Sends a request and waits up to {@code timeout} for its result. */
  JsonNode request(String method, Object params, Duration timeout) throws InterruptedException {
    CompletableFuture<JsonNode> answer = requestAsync(method, params);
    try {
      return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      answer.cancel(true);
      throw new AcpAgentException(name + " did not answer " + method + " within " + timeout.toSeconds() + " s" + stderrPart());
    } catch (ExecutionException e) {
      throw failure(method, e.getCause());
    } catch (InterruptedException e) {
      answer.cancel(true);
      throw e;
    }
  }

  /** Sends a request; the future completes with its result, or fails as {@link #failure} describes. */
  CompletableFuture<JsonNode> requestAsync(String method, Object params) {
    CompletableFuture<JsonNode> answer = session.sendRequest(method, params, JSON).toFuture();
    if (ended.get()) {
      // stdout ended while the request was being registered. The SDK's close() errors its pending requests
      // with forEach and then clear(): a request put in between is dropped without an answer and would wait out
      // its deadline (seen once: 30 s for an agent that had exited at once). failure() reports the exit.
      answer.completeExceptionally(new java.io.EOFException(name + "'s output had ended"));
    }
    return answer;
  }

  /** Sends a notification (no answer); a dead agent is ignored here and noticed by the pending request. */
  void notify(String method, Object params) {
    session.sendNotification(method, params).subscribe(ignored -> {}, error -> LOG.debug("{}: {} not sent: {}", name, method, error.toString()));
  }

  /** What a failed request means, as a sentence naming the agent and the method. */
  AcpAgentException failure(String method, Throwable cause) {
    if (cause instanceof AcpAgentException known) {
      return known;
    }
    if (cause instanceof AcpClientSession.AcpError error) {
      return new AcpAgentException(name + " answered " + method + " with an error: " + describe(error.getError()));
    }
    if (ended.get() || !process.isAlive() || stdinClosed(cause)) {
      return exited("during " + method); // a closed stdin means it is exiting: exited() waits for it
    }
    return new AcpAgentException(name + ": " + method + " failed: " + redact(String.valueOf(cause.getMessage())), cause);
  }

  private static boolean stdinClosed(Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof java.io.UncheckedIOException) {
        return true; // AgentProcess.send: the agent no longer takes input
      }
    }
    return false;
  }

  /** The agent's exit as a sentence: its exit code and the end of its stderr. */
  AcpAgentException exited(String when) {
    OptionalInt code = OptionalInt.empty();
    try {
      code = process.awaitExit(Duration.ofSeconds(2));
      process.awaitStderr(Duration.ofSeconds(1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    String exit = code.isPresent() ? " (exit code " + code.getAsInt() + ")" : "";
    return new AcpAgentException(name + " exited" + exit + " " + when + stderrPart());
  }

  /** When the agent last wrote a line ({@link System#nanoTime}). */
  long lastLineNanos() {
    return transport.lastLineNanos();
  }

  /** A prompt ended because the agent said nothing for {@code limit}, with the end of its stderr (its retries, if it logs them). */
  AcpAgentException silent(Duration limit) {
    String amount = limit.toMillis() % 1000 == 0 ? limit.toSeconds() + " s" : limit.toMillis() + " ms";
    return new AcpAgentException(name + " heard nothing from its model for " + amount
        + " (it may be retrying a failing model endpoint); the prompt was cancelled" + stderrPart());
  }

  /**
   * Waits until the agent has written nothing for {@code quiet} (a replay it streams after {@code
   * session/load} has ended), at most {@code max}.
   */
  void awaitQuiet(Duration quiet, Duration max) throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    while (true) {
      long silentFor = System.nanoTime() - transport.lastLineNanos();
      long remaining = deadline - System.nanoTime();
      if (silentFor >= quiet.toNanos() || remaining <= 0 || ended.get()) {
        return;
      }
      TimeUnit.NANOSECONDS.sleep(Math.min(quiet.toNanos() - silentFor, remaining));
    }
  }

  boolean isAlive() {
    return !ended.get() && process.isAlive();
  }

  /** The resident memory of the agent and everything it started, in KiB. */
  long residentKib() {
    long total = Math.max(0, process.residentKib());
    for (ProcessHandle child : ProcessHandle.of(process.pid()).map(handle -> handle.descendants().toList()).orElse(List.of())) {
      total += Math.max(0, AgentProcess.residentKib(child.pid()));
    }
    return total;
  }

  /** Kills the agent's process group now (SIGTERM, a short grace, SIGKILL). */
  void kill() {
    process.terminate(Duration.ofSeconds(1));
  }

  /**
   * Ends the agent: fails pending requests, closes its stdin (an ACP agent exits on end of input), waits up
   * to {@code grace}, then kills its process group and whatever is left of it.
   */
  void close(Duration grace) {
    session.close();
    process.closeStdin();
    try {
      process.awaitExit(grace);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    process.terminate(Duration.ofSeconds(1));
  }

  @Override
  public void close() {
    close(Duration.ofSeconds(2));
  }

  /** {@code text} with every secret replaced by {@code [redacted]}. */
  String redact(String text) {
    String out = text;
    for (String secret : secrets) {
      if (secret != null && secret.length() >= 8) {
        out = out.replace(secret, "[redacted]");
      }
    }
    return out;
  }

  private String stderrPart() {
    String tail = redact(process.stderrTail()).strip();
    if (tail.isEmpty()) {
      return "";
    }
    List<String> lines = tail.lines().toList();
    return "; its stderr ends with:\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 12), lines.size()));
  }

  private String describe(AcpSchema.JSONRPCError error) {
    JsonNode api = apiError(error.message());
    if (api != null) { // Gemini passes the model API's error body on as the message
      String status = api.path("status").asText("");
      return redact(api.path("message").asText() + " (" + (status.isEmpty() ? "" : status + ", ") + "code " + error.code() + ")");
    }
    StringBuilder text = new StringBuilder(String.valueOf(error.message()));
    Object data = error.data();
    if (data instanceof Map<?, ?> map && map.get("details") != null) {
      text.append(": ").append(map.get("details"));
    } else if (data != null && !(data instanceof Map<?, ?> map && map.isEmpty())) {
      text.append(": ").append(AcpJson.tree(data));
    }
    text.append(" (code ").append(error.code()).append(')');
    return redact(text.toString().strip());
  }

  /** The {@code error} object of a message that is a JSON API error body, or null. */
  private static JsonNode apiError(String message) {
    if (message == null || !message.strip().startsWith("{")) {
      return null;
    }
    try {
      JsonNode error = AcpJson.MAPPER.readTree(message).path("error");
      return error.path("message").isTextual() ? error : null;
    } catch (java.io.IOException e) {
      return null;
    }
  }

  private void update(Object params) {
    AcpSchema.SessionNotification notification;
    try {
      notification = AcpJson.convert(params, AcpSchema.SessionNotification.class);
    } catch (IllegalArgumentException e) {
      LOG.debug("{}: skipped a session update the SDK cannot read: {}", name, e.getMessage());
      return;
    }
    if (notification.update() == null) {
      return;
    }
    try {
      updates.accept(notification);
    } catch (TurnStoppedException e) {
      // The turn was stopped and the agent is still winding down (Gemini streams on for a moment after
      // session/cancel): expected, so the update is dropped here rather than reported by the SDK as an error.
      LOG.debug("{}: dropped an update that came after the turn was stopped ({})", name, e.getMessage());
    }
  }

  private void stdoutEnded() {
    ended.set(true);
    AcpClientSession current = session;
    if (current != null) {
      current.close(); // fails the pending requests now rather than at their deadline
    }
  }
}
