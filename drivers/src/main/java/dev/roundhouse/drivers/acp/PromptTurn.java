package dev.roundhouse.drivers.acp;

import com.agentclientprotocol.sdk.spec.AcpSchema;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.spi.PermissionRequest;
import dev.roundhouse.hub.spi.PermissionVerdict;
import dev.roundhouse.hub.spi.TurnContext;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.spi.TurnStoppedException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code session/prompt}, mapped onto the turn contract:
 *
 * <ul>
 *   <li>{@code agent_message_chunk} (text) → {@link TurnEvent.TextDelta}; the whole text becomes one
 *       {@link TurnEvent.AssistantMessage} when the prompt ends.
 *   <li>{@code tool_call} / {@code tool_call_update} → {@link TurnEvent.ToolCall} once per call, {@link
 *       TurnEvent.ToolOutputDelta} for content that grows while it runs, {@link TurnEvent.ToolResult} at
 *       {@code completed} (or {@code failed}, as an error).
 *   <li>{@code session/request_permission} → the call (if not yet seen), then the hub's gate; a denial
 *       also closes the call with an error result (Gemini sends nothing more for a refused call).
 *   <li>{@code plan} → a {@code plan} tool call whose result is the checklist.
 *   <li>{@code agent_thought_chunk}, {@code user_message_chunk} and the rest are not recorded.
 *   <li>the prompt's answer → token usage (ACP's {@code usage}, or Gemini's {@code _meta.quota}) and
 *       {@link TurnEvent.Result} with the stop reason.
 * </ul>
 *
 * <p>Thread-safe: updates arrive on the agent's reader thread, permission requests on threads of their
 * own, {@link #finish} on the turn's thread after the prompt's answer (which the reader delivered after
 * every update before it).
 */
final class PromptTurn {
  private static final Logger LOG = LoggerFactory.getLogger(PromptTurn.class);

  private final TurnContext context;
  private final StringBuffer text = new StringBuffer();
  private final Map<String, ToolState> tools = new ConcurrentHashMap<>();
  private final AtomicInteger plans = new AtomicInteger();
  private final AtomicInteger unnamedCalls = new AtomicInteger();

  private final String sessionId;
  private final AtomicInteger openPermissions = new AtomicInteger();
  private volatile long lastActivityNanos = System.nanoTime();

  PromptTurn(TurnContext context) {
    this(context, null);
  }

  PromptTurn(TurnContext context, String sessionId) {
    this.context = context;
    this.sessionId = sessionId;
  }

  String sessionId() {
    return sessionId;
  }

  /** True while the agent waits on the hub (a permission request is open) or on a tool it runs. */
  boolean waitingOnOthers() {
    if (openPermissions.get() > 0) {
      return true;
    }
    for (ToolState state : tools.values()) {
      if (state.announced.get() && !state.finished.get()) {
        return true;
      }
    }
    return false;
  }

  /** When a permission request was last answered ({@link System#nanoTime}): the agent's wait on it is no silence of its own. */
  long lastActivityNanos() {
    return lastActivityNanos;
  }

  private static final class ToolState {
    final AtomicBoolean announced = new AtomicBoolean();
    final AtomicBoolean finished = new AtomicBoolean();
    volatile String output = "";
  }

  /** A session update from the agent (reader thread). */
  void onUpdate(AcpSchema.SessionNotification notification) {
    switch (notification.update()) {
      case AcpSchema.AgentMessageChunk chunk -> {
        if (chunk.content() instanceof AcpSchema.TextContent content && content.text() != null && !content.text().isEmpty()) {
          text.append(content.text());
          context.emit(new TurnEvent.TextDelta(content.text()));
        }
      }
      case AcpSchema.ToolCall call -> {
        announce(call.toolCallId(), call.title(), call.kind(), call.locations(), call.rawInput());
        progress(call.toolCallId(), call.status(), call.content(), call.rawOutput());
      }
      case AcpSchema.ToolCallUpdateNotification update -> {
        announce(update.toolCallId(), update.title(), update.kind(), update.locations(), update.rawInput());
        progress(update.toolCallId(), update.status(), update.content(), update.rawOutput());
      }
      case AcpSchema.Plan plan -> plan(plan.entries());
      default -> {} // thoughts, the user's own message, commands, modes, usage_update: not part of the record
    }
  }

  /** The agent asks to use a tool (on a thread of its own): the hub's gate decides. */
  AcpSchema.RequestPermissionResponse onPermission(AcpSchema.RequestPermissionRequest request) {
    openPermissions.incrementAndGet();
    try {
      return answerPermission(request);
    } finally {
      lastActivityNanos = System.nanoTime();
      openPermissions.decrementAndGet();
    }
  }

  private AcpSchema.RequestPermissionResponse answerPermission(AcpSchema.RequestPermissionRequest request) {
    try {
      AcpSchema.ToolCallUpdate call = request.toolCall() != null
          ? request.toolCall()
          : new AcpSchema.ToolCallUpdate(null, null, null, null, null, null, null, null);
      String callId = call.toolCallId() != null ? call.toolCallId() : "permission-" + unnamedCalls.incrementAndGet();
      JsonNode input = ToolCalls.input(call.title(), call.kind(), call.locations(), call.rawInput(), call.content());
      announce(callId, call.kind(), call.title(), input);
      PermissionVerdict verdict = context.requestPermission(new PermissionRequest(callId, ToolCalls.toolName(call.kind(), call.title()), input,
          ToolCalls.describe(call.title(), call.kind(), input), ToolCalls.command(call.kind(), call.title(), call.rawInput())));
      if (context.isStopped()) {
        return AcpConnection.CANCELLED;
      }
      if (!verdict.allowed()) {
        finish(callId, "permission denied: " + verdict.reason(), true);
      }
      return PermissionAnswers.choose(request.options(), verdict);
    } catch (TurnStoppedException e) {
      return AcpConnection.CANCELLED;
    } catch (RuntimeException e) {
      LOG.warn("answering a permission request failed; refused it", e);
      return AcpConnection.CANCELLED;
    }
  }

  /**
   * The prompt's answer (turn thread): closes calls the agent left open, then the assistant message, the
   * usage and the result. Returns the stop reason.
   */
  String finish(JsonNode answer) {
    String stopReason = answer.path("stopReason").asText("end_turn");
    tools.forEach((callId, state) -> {
      if (state.announced.get()) {
        finish(callId, "the agent ended the prompt (" + stopReason + ") before this tool finished", true);
      }
    });
    String all = text.toString();
    if (!all.isEmpty()) {
      context.emit(new TurnEvent.AssistantMessage(all));
    }
    TurnEvent.Usage usage = usage(answer);
    if (usage != null) {
      context.emit(usage);
    }
    context.emit(new TurnEvent.Result(stopReason, all));
    return stopReason;
  }

  private void announce(String callId, String title, AcpSchema.ToolKind kind, List<AcpSchema.ToolCallLocation> locations, Object rawInput) {
    if (callId != null) {
      announce(callId, kind, title, ToolCalls.input(title, kind, locations, rawInput));
    }
  }

  private void announce(String callId, AcpSchema.ToolKind kind, String title, JsonNode input) {
    ToolState state = tools.computeIfAbsent(callId, id -> new ToolState());
    if (state.announced.compareAndSet(false, true)) {
      context.emit(new TurnEvent.ToolCall(callId, ToolCalls.toolName(kind, title), input));
    }
  }

  private void progress(String callId, AcpSchema.ToolCallStatus status, List<AcpSchema.ToolCallContent> content, Object rawOutput) {
    if (callId == null) {
      return;
    }
    String output = ToolCalls.output(content, rawOutput);
    if (status == AcpSchema.ToolCallStatus.COMPLETED || status == AcpSchema.ToolCallStatus.FAILED) {
      finish(callId, output, status == AcpSchema.ToolCallStatus.FAILED);
      return;
    }
    ToolState state = tools.get(callId);
    if (state != null && !output.isEmpty() && !output.equals(state.output)) {
      String before = state.output;
      state.output = output;
      context.emit(new TurnEvent.ToolOutputDelta(callId, output.startsWith(before) ? output.substring(before.length()) : output));
    }
  }

  private void finish(String callId, String output, boolean isError) {
    ToolState state = tools.computeIfAbsent(callId, id -> new ToolState());
    if (state.finished.compareAndSet(false, true)) {
      context.emit(new TurnEvent.ToolResult(callId, output, isError));
    }
  }

  private void plan(List<AcpSchema.PlanEntry> entries) {
    String callId = "plan-" + plans.incrementAndGet();
    ObjectNode input = AcpJson.MAPPER.createObjectNode();
    ArrayNode items = input.putArray("entries");
    StringBuilder checklist = new StringBuilder();
    for (AcpSchema.PlanEntry entry : entries == null ? List.<AcpSchema.PlanEntry>of() : entries) {
      String status = entry.status() == null ? "pending" : AcpJson.MAPPER.convertValue(entry.status(), String.class);
      items.addObject().put("content", entry.content()).put("status", status);
      String box = switch (status) {
        case "completed" -> "[x]";
        case "in_progress" -> "[~]";
        default -> "[ ]";
      };
      checklist.append(box).append(' ').append(entry.content()).append('\n');
    }
    context.emit(new TurnEvent.ToolCall(callId, "plan", input));
    context.emit(new TurnEvent.ToolResult(callId, checklist.toString().strip(), false));
  }

  /** ACP's (unstable) {@code usage}, else Gemini's {@code _meta.quota.token_count}; null when neither. */
  private static TurnEvent.Usage usage(JsonNode answer) {
    JsonNode usage = answer.path("usage");
    if (usage.isObject()) {
      return new TurnEvent.Usage(usage.path("inputTokens").asLong(), usage.path("outputTokens").asLong(), null, false);
    }
    JsonNode quota = answer.path("_meta").path("quota").path("token_count");
    if (quota.isObject()) {
      return new TurnEvent.Usage(quota.path("input_tokens").asLong(), quota.path("output_tokens").asLong(), null, false);
    }
    return null;
  }
}
