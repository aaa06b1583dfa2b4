package dev.roundhouse.lspbridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * One {@code session/prompt}: sends the prompt to the session's task ({@code turn_start}, or
 * {@code turn_send} when a turn is running or lingering), streams the turn's events back as
 * {@code session/update}, offers each of the task's decisions as {@code session/request_permission}, and
 * returns the stop reason when the turn ends or lingers.
 *
 * <p>The task's event stream is opened after the newest stored event <em>before</em> the message is sent,
 * so nothing the turn does is missed; a stream lost mid-turn is reopened after the last event seen.
 *
 * <p>Thread-safety: {@link #run} runs on the prompt's thread (it reads the stream); {@link #cancel} comes
 * from another thread (the {@code session/cancel} notification) and only sets a flag, stops the turn through
 * the hub and closes the stream. Decision prompts wait for the client on threads of {@code executor}.
 */
final class AcpPrompt {
  /** Stop reasons ACP defines that a driver's {@code turn.result} may name. */
  private static final Set<String> ACP_STOP_REASONS = Set.of("end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled");

  private static final Duration RETRY = Duration.ofSeconds(1);
  private static final Duration GIVE_UP = Duration.ofSeconds(60);

  private final HubHttp hub;
  private final AcpConnection client;
  private final Executor executor;
  private final String sessionId;
  private final long task;
  private final String model;
  private final String permissionMode;
  private final AcpDecisionOffers offers;
  private volatile boolean cancelled;
  private volatile InputStream stream;

  // Only the prompt's thread touches these.
  private Long turn; // the turn that carries the prompt, once known
  private Long runningBefore; // the turn that was running when the prompt was queued behind it
  private boolean deltasSinceMessage;
  private String resultStopReason;
  private String errorMessage;
  private long inputTokens;
  private long outputTokens;
  private double costUsd;
  private boolean sawUsage;
  private final Map<String, StringBuilder> toolOutput = new HashMap<>();

  /**
   * @param model the model for a turn this prompt starts, or null for the driver's default
   * @param permissionMode the agent's permission mode for a turn this prompt starts, or null
   */
  AcpPrompt(HubHttp hub, AcpConnection client, Executor executor, AcpDecisionOffers offers, String sessionId, long task, String model, String permissionMode) {
    this.offers = offers;
    this.hub = hub;
    this.client = client;
    this.executor = executor;
    this.sessionId = sessionId;
    this.task = task;
    this.model = model;
    this.permissionMode = permissionMode;
  }

  /** Runs the prompt to its end and returns the {@code session/prompt} result. */
  ObjectNode run(String message) {
    long after = hub.latestSeq();
    InputStream first = hub.openTaskEvents(task, after);
    stream = first;
    try {
      send(message);
      offers.offerPending(task);
      String stopReason = follow(first, after);
      ObjectNode result = Json.mapper().createObjectNode();
      result.put("stopReason", stopReason);
      ObjectNode meta = result.putObject("_meta").putObject("roundhouse");
      meta.put("task", task);
      if (turn != null) {
        meta.put("turn", turn);
      }
      if (sawUsage) {
        ObjectNode usage = meta.putObject("usage");
        usage.put("input_tokens", inputTokens);
        usage.put("output_tokens", outputTokens);
        usage.put("cost_usd", costUsd);
      }
      return result;
    } finally {
      closeQuietly(stream);
    }
  }

  private void send(String message) {
    ObjectNode input = Json.mapper().createObjectNode();
    input.put("task", task);
    input.put("message", message);
    try {
      ObjectNode start = input.deepCopy();
      if (model != null) {
        start.put("model", model);
      }
      if (permissionMode != null) {
        start.put("permission_mode", permissionMode);
      }
      turn = hub.callTree("turn_start", start).path("turn").path("id").asLong();
      return;
    } catch (HubErrorException e) {
      if (e.status() != 409) {
        throw e;
      }
    }
    // A turn runs or lingers: send the message to it.
    JsonNode sent = hub.callTree("turn_send", input);
    long id = sent.path("turn").path("id").asLong();
    if (sent.path("delivery").asText().equals("queued")) {
      runningBefore = id; // the next turn will carry it
    } else {
      turn = id;
    }
  }

  private String follow(InputStream opened, long after) {
    InputStream current = opened;
    long last = after;
    long lostSince = 0;
    while (true) {
      Outcome outcome = read(current, last);
      last = outcome.last();
      if (outcome.stopReason() != null) {
        return outcome.stopReason();
      }
      if (cancelled) {
        return "cancelled";
      }
      // Lost the stream: reopen it after the last event seen.
      if (lostSince == 0) {
        lostSince = System.nanoTime();
      }
      while (true) {
        if (cancelled) {
          return "cancelled";
        }
        if (System.nanoTime() - lostSince > GIVE_UP.toNanos()) {
          throw new AcpError(AcpError.INTERNAL_ERROR, "lost the hub's event stream for task " + task + " and could not reopen it within " + GIVE_UP.toSeconds() + " s; the turn goes on in the hub");
        }
        try {
          Thread.sleep(RETRY);
          current = hub.openTaskEvents(task, last);
          stream = current;
          lostSince = 0;
          break;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return "cancelled";
        } catch (RoundhouseException e) {
          // still away: try again
        }
      }
    }
  }

  private record Outcome(long last, String stopReason) {}

  private Outcome read(InputStream body, long last) {
    try (body) {
      SseReader reader = new SseReader(body);
      while (true) {
        Optional<SseReader.Item> item = reader.next();
        if (item.isEmpty()) {
          return new Outcome(last, null);
        }
        if (!(item.get() instanceof SseReader.Message message) || message.event().equals("closed")) {
          if (item.get() instanceof SseReader.Message) {
            return new Outcome(last, null); // the hub dropped a slow reader: resume
          }
          continue;
        }
        long seq = sequence(message.id());
        if (seq != 0 && seq <= last) {
          continue;
        }
        if (seq != 0) {
          last = seq;
        }
        JsonNode event;
        try {
          event = Json.mapper().readTree(message.data());
        } catch (IOException e) {
          continue;
        }
        String stop = handle(event);
        if (stop != null) {
          return new Outcome(last, stop);
        }
      }
    } catch (IOException | UncheckedIOException e) {
      return new Outcome(last, null);
    }
  }

  /** Handles one event; returns the stop reason when it ends the prompt. */
  private String handle(JsonNode event) {
    String type = event.path("type").asText();
    JsonNode data = event.path("data");
    if (type.startsWith("decision.")) {
      if (type.equals("decision.opened")) {
        if (!cancelled) {
          offers.offer(data.path("decision"));
        }
      }
      return null;
    }
    if (!type.startsWith("turn.") || !data.path("turn").canConvertToLong()) {
      return null;
    }
    long eventTurn = data.path("turn").asLong();
    if (turn == null) {
      if (type.equals("turn.started") && (runningBefore == null || eventTurn != runningBefore)) {
        turn = eventTurn; // the turn that runs the queued prompt
      } else {
        return null;
      }
    }
    if (eventTurn != turn) {
      return null;
    }
    switch (type) {
      case "turn.text_delta" -> {
        String text = data.path("text").asText("");
        if (!text.isEmpty()) {
          deltasSinceMessage = true;
          update(AcpUpdates.chunk("agent_message_chunk", text));
        }
      }
      case "turn.message" -> {
        if (!deltasSinceMessage) {
          update(AcpUpdates.chunk("agent_message_chunk", data.path("text").asText("")));
        }
        deltasSinceMessage = false;
      }
      case "turn.thought" -> update(AcpUpdates.chunk("agent_thought_chunk", data.path("text").asText("")));
      case "turn.plan" -> update(AcpUpdates.plan(data));
      case "turn.tool_call" -> update(AcpUpdates.toolCall(data));
      case "turn.tool_output" -> {
        String callId = data.path("call_id").asText();
        StringBuilder output = toolOutput.computeIfAbsent(callId, id -> new StringBuilder());
        output.append(data.path("text").asText(""));
        update(AcpUpdates.toolOutput(callId, output.toString()));
      }
      case "turn.tool_result" -> {
        toolOutput.remove(data.path("call_id").asText());
        update(AcpUpdates.toolResult(data));
      }
      case "turn.permission_denied" -> {
        if (data.hasNonNull("call_id")) {
          update(AcpUpdates.toolDenied(data));
        }
      }
      case "turn.usage" -> {
        sawUsage = true;
        inputTokens += data.path("input_tokens").asLong(0);
        outputTokens += data.path("output_tokens").asLong(0);
        costUsd += data.path("cost_usd").asDouble(0);
        if (data.path("context_window").canConvertToLong() && data.path("context_tokens").canConvertToLong()) {
          update(AcpUpdates.usage(data.get("context_tokens").asLong(), data.get("context_window").asLong(), data.has("cost_usd") ? costUsd : null));
        }
      }
      case "turn.result" -> resultStopReason = data.path("stop_reason").asText(null);
      case "turn.error" -> errorMessage = data.path("message").asText(null);
      case "turn.lingering" -> {
        return cancelled ? "cancelled" : completedReason();
      }
      case "turn.ended" -> {
        return ended(data.path("status").asText(), data.path("reason").asText(""));
      }
      default -> {
        // started, user_message, queued, session, permission_requested (its decision comes as decision.opened), idle, active
      }
    }
    return null;
  }

  private String completedReason() {
    return resultStopReason != null && ACP_STOP_REASONS.contains(resultStopReason) ? resultStopReason : "end_turn";
  }

  private String ended(String status, String reason) {
    return switch (status) {
      case "completed" -> cancelled ? "cancelled" : completedReason();
      case "stopped", "declined" -> "cancelled";
      default -> {
        if (cancelled) {
          yield "cancelled";
        }
        String why = errorMessage != null ? errorMessage : reason.isBlank() ? "no reason given" : reason;
        throw new AcpError(AcpError.INTERNAL_ERROR, "the turn on task " + task + " ended " + status + ": " + why,
            Json.mapper().createObjectNode().put("task", task).put("turn", turn).put("status", status));
      }
    };
  }

  private void update(ObjectNode update) {
    ObjectNode params = Json.mapper().createObjectNode();
    params.put("sessionId", sessionId);
    params.set("update", update);
    client.notify("session/update", params);
  }

  /** Stops the turn (the hub expires its pending decisions) and makes the prompt end with {@code cancelled}. */
  void cancel() {
    cancelled = true;
    try {
      hub.callTree("turn_stop", Map.of("task", task));
    } catch (RoundhouseException e) {
      closeQuietly(stream); // nothing to stop: end the prompt now
    }
  }

  /** The client went away: stop following (the turn goes on in the hub, as turns do when an editor closes). */
  void abandon() {
    cancelled = true;
    closeQuietly(stream);
  }

  private static long sequence(String id) {
    try {
      return id == null || id.isEmpty() ? 0 : Long.parseLong(id);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static void closeQuietly(InputStream in) {
    if (in != null) {
      try {
        in.close();
      } catch (IOException e) {
        // closing anyway
      }
    }
  }
}
