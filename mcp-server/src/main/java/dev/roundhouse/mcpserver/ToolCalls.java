package dev.roundhouse.mcpserver;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.ops.OperationRegistry;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.LoggingLevel;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one {@code tools/call} of an operation for its caller, and tells the calling session about it:
 *
 * <ul>
 *   <li><b>progress</b>, when the request carries a {@code progressToken}: one notification every
 *       {@code heartbeat} while the operation is still running (a question to the user, a driver round trip),
 *       and none at its start or end. A notification that reaches a client together with the answer is
 *       handled after it by the TypeScript SDK (notifications wait a microtask, responses do not), so the
 *       token is unknown by then: the SDK reports an error and Claude Code drops the stdio server. Hence no
 *       start or final notification, and an answer is held until {@link #QUIET} after the last heartbeat so
 *       the two never share a read;
 *   <li><b>logging</b>, at the level the client set with {@code logging/setLevel} (the SDK filters): the
 *       call at {@code debug} (reads) or {@code info} (writes) with its duration, a refusal at
 *       {@code warning}, an internal failure at {@code error} with its log reference.
 * </ul>
 *
 * <p>Thread-safe (immutable). With a progress token the operation runs on a virtual thread of its own
 * while the request's thread sends heartbeats; no lock is held.
 */
final class ToolCalls {
  private static final Logger log = LoggerFactory.getLogger(ToolCalls.class);
  static final String LOGGER = "roundhouse";
  /** How long after a heartbeat the answer waits, so a client reads the two apart. */
  static final Duration QUIET = Duration.ofMillis(100);

  private final OperationRegistry registry;
  private final Duration heartbeat;

  ToolCalls(OperationRegistry registry, Duration heartbeat) {
    this.registry = registry;
    this.heartbeat = heartbeat;
  }

  /** Where a call's log messages go: the SDK's exchange, or the answer {@link DirectToolCalls} writes. */
  interface CallLog {
    /** Whether the client asked for messages at {@code level} (so the message is worth building). */
    boolean wants(LoggingLevel level);

    void send(McpSchema.LoggingMessageNotification message);
  }

  /** A call through the SDK: progress when the request carries a token, logging through the exchange. */
  McpSchema.CallToolResult call(McpSyncServerExchange exchange, McpSchema.CallToolRequest request, String name, boolean readOnly) {
    Caller caller = Caller.of(exchange);
    if (!caller.offered(name)) {
      throw UnknownTools.error(name, registry, caller);
    }
    Actor actor = Caller.actor(exchange);
    JsonNode arguments = request.arguments() == null ? null : Json.mapper().valueToTree(request.arguments());
    Object token = request.meta() == null ? null : request.meta().get("progressToken");
    Supplier<McpSchema.CallToolResult> run = () -> ToolResults.run(name, () -> registry.invokeToJson(name, actor, arguments));
    CallLog toExchange = new CallLog() {
      @Override
      public boolean wants(LoggingLevel level) {
        return true; // the exchange filters at the session's level itself
      }

      @Override
      public void send(McpSchema.LoggingMessageNotification message) {
        ToolCalls.send(exchange, message);
      }
    };
    return logged(name, actor, readOnly, token == null ? run : () -> withProgress(exchange, token, name, run), toExchange);
  }

  /** A call without a progress token, for an {@code actor} whose caller is offered {@code name}. */
  McpSchema.CallToolResult call(Actor actor, String name, JsonNode arguments, boolean readOnly, CallLog sessionLog) {
    return logged(name, actor, readOnly, () -> ToolResults.run(name, () -> registry.invokeToJson(name, actor, arguments)), sessionLog);
  }

  private static McpSchema.CallToolResult logged(
      String name, Actor actor, boolean readOnly, Supplier<McpSchema.CallToolResult> call, CallLog sessionLog) {
    long started = System.nanoTime();
    McpSchema.CallToolResult result = call.get();
    long millis = Duration.ofNanos(System.nanoTime() - started).toMillis();
    if (Boolean.TRUE.equals(result.isError())) {
      String text = result.content().isEmpty() ? "" : ((McpSchema.TextContent) result.content().get(0)).text();
      LoggingLevel level = text.startsWith("internal error") ? LoggingLevel.ERROR : LoggingLevel.WARNING;
      if (sessionLog.wants(level)) {
        sessionLog.send(message(level, name + " for " + actor + " refused: " + text));
      }
    } else {
      LoggingLevel level = readOnly ? LoggingLevel.DEBUG : LoggingLevel.INFO;
      if (sessionLog.wants(level)) {
        sessionLog.send(message(level, name + " for " + actor + " done in " + millis + " ms"));
      }
    }
    return result;
  }

  private McpSchema.CallToolResult withProgress(
      McpSyncServerExchange exchange, Object token, String name, Supplier<McpSchema.CallToolResult> call) {
    CompletableFuture<McpSchema.CallToolResult> result = new CompletableFuture<>();
    Thread.ofVirtual().name("roundhouse-mcp-call-" + name).start(() -> {
      try {
        result.complete(call.get());
      } catch (Throwable t) {
        result.completeExceptionally(t);
      }
    });
    int beats = 0;
    long started = System.nanoTime();
    long lastBeat = 0;
    while (true) {
      try {
        McpSchema.CallToolResult done = result.get(heartbeat.toNanos(), TimeUnit.NANOSECONDS);
        if (beats > 0) {
          holdAfterBeat(lastBeat);
        }
        return done;
      } catch (TimeoutException e) {
        beats++;
        progress(exchange, token, beats, name + " still running after " + Duration.ofNanos(System.nanoTime() - started).toSeconds() + " s");
        lastBeat = System.nanoTime();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return ToolResults.error(name + " was interrupted before it finished");
      } catch (ExecutionException e) {
        throw e.getCause() instanceof RuntimeException failure ? failure : new IllegalStateException(e.getCause());
      }
    }
  }

  /** Waits out the rest of {@link #QUIET} after the heartbeat sent at {@code lastBeat} (a nanoTime). */
  private static void holdAfterBeat(long lastBeat) {
    long wait = QUIET.toNanos() - (System.nanoTime() - lastBeat);
    if (wait > 0) {
      try {
        TimeUnit.NANOSECONDS.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // the answer is ready: send it now
      }
    }
  }

  private static void progress(McpSyncServerExchange exchange, Object token, double progress, String message) {
    try {
      exchange.progressNotification(McpSchema.ProgressNotification.builder(token, progress).message(message).build());
    } catch (RuntimeException e) {
      log.debug("progress notification not delivered: {}", e.toString());
    }
  }

  /** A log message from the {@link #LOGGER roundhouse} logger. */
  // The SDK marks MCP logging deprecated (its draft protocol drops it); the protocol versions clients speak
  // today (up to 2025-11-25) have it.
  @SuppressWarnings("deprecation")
  static McpSchema.LoggingMessageNotification message(LoggingLevel level, String text) {
    return McpSchema.LoggingMessageNotification.builder(level, text).logger(LOGGER).build();
  }

  @SuppressWarnings("deprecation") // see message()
  private static void send(McpSyncServerExchange exchange, McpSchema.LoggingMessageNotification message) {
    try {
      exchange.loggingNotification(message);
    } catch (RuntimeException e) {
      log.debug("log notification not delivered: {}", e.toString());
    }
  }
}
