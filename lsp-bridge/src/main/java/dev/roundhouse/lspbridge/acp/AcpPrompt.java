package dev.roundhouse.lspbridge.acp;

import com.agentclientprotocol.sdk.spec.AcpSchema;
import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.api.TurnApi;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.McpServerSpec;
import dev.roundhouse.hubclient.HubErrorException;
import dev.roundhouse.hubclient.RemoteHub;
import dev.roundhouse.hubclient.SseReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
  private static final Duration RETRY = Duration.ofSeconds(1);
  private static final Duration GIVE_UP = Duration.ofSeconds(60);

  private final RemoteHub hub;
  private final AcpConnection client;
  private final Executor executor;
  private final String sessionId;
  private final long task;
  private final String model;
  private final String permissionMode;
  private final List<McpServerSpec> mcpServers;
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
   * @param mcpServers the session's MCP servers, for a turn this prompt starts
   */
  AcpPrompt(RemoteHub hub, AcpConnection client, Executor executor, AcpDecisionOffers offers, String sessionId, long task,
      String model, String permissionMode, List<McpServerSpec> mcpServers) {
    this.mcpServers = mcpServers;
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
  AcpSchema.PromptResponse run(String message) {
    long after = hub.latestSeq();
    InputStream first = hub.openTaskEvents(task, after);
    stream = first;
    if (cancelled) {
      closeQuietly(first); // abandoned before the stream was known: follow nothing
    }
    try {
      send(message);
      offers.offerPending(task);
      AcpSchema.StopReason stopReason = follow(first, after);
      Map<String, Object> meta = new LinkedHashMap<>();
      meta.put("task", task);
      if (turn != null) {
        meta.put("turn", turn);
      }
      if (sawUsage) {
        Map<String, Object> usage = new LinkedHashMap<>();
        usage.put("input_tokens", inputTokens);
        usage.put("output_tokens", outputTokens);
        usage.put("cost_usd", costUsd);
        meta.put("usage", usage);
      }
      return new AcpSchema.PromptResponse(stopReason, Map.of("roundhouse", meta));
    } finally {
      closeQuietly(stream);
    }
  }

  /**
   * Starts a turn with the message, or gives it to the turn that runs or lingers. No driver is named: the
   * hub picks the task's (see {@code DriverChoice}).
   */
  private void send(String message) {
    try {
      turn = hub.turnStart(new TurnApi.TurnStart(task, message, null, model, permissionMode, null, null, mcpServers)).turn().id();
      return;
    } catch (HubErrorException e) {
      if (e.status() != 409) {
        throw e;
      }
    }
    // A turn runs or lingers: send the message to it.
    TurnApi.SendResult sent = hub.turnSend(new TurnApi.TurnSend(task, message, null, mcpServers));
    long id = sent.turn().id();
    if ("queued".equals(sent.delivery())) {
      runningBefore = id; // the next turn will carry it
    } else {
      turn = id;
    }
  }

  private AcpSchema.StopReason follow(InputStream opened, long after) {
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
        return AcpSchema.StopReason.CANCELLED;
      }
      // Lost the stream: reopen it after the last event seen.
      if (lostSince == 0) {
        lostSince = System.nanoTime();
      }
      while (true) {
        if (cancelled) {
          return AcpSchema.StopReason.CANCELLED;
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
          return AcpSchema.StopReason.CANCELLED;
        } catch (RoundhouseException e) {
          // still away: try again
        }
      }
    }
  }

  private record Outcome(long last, AcpSchema.StopReason stopReason) {}

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
        AcpSchema.StopReason stop = handle(event);
        if (stop != null) {
          return new Outcome(last, stop);
        }
      }
    } catch (IOException | UncheckedIOException e) {
      return new Outcome(last, null);
    }
  }

  /** Handles one event; returns the stop reason when it ends the prompt. */
  private AcpSchema.StopReason handle(JsonNode event) {
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
          update(AcpUpdates.chunk(AcpUpdates.AGENT_MESSAGE, text));
        }
      }
      case "turn.message" -> {
        if (!deltasSinceMessage) {
          update(AcpUpdates.chunk(AcpUpdates.AGENT_MESSAGE, data.path("text").asText("")));
        }
        deltasSinceMessage = false;
      }
      case "turn.thought" -> update(AcpUpdates.chunk(AcpUpdates.AGENT_THOUGHT, data.path("text").asText("")));
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
      case "turn.question_refused", "turn.drift_refused", "turn.context_trimmed", "turn.endpoint_silent" ->
          AcpUpdates.notice(type, data).ifPresent(this::update);
      case "turn.result" -> resultStopReason = data.path("stop_reason").asText(null);
      case "turn.error" -> errorMessage = data.path("message").asText(null);
      case "turn.lingering" -> {
        return cancelled ? AcpSchema.StopReason.CANCELLED : completedReason();
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

  /** The driver's stop reason when ACP defines it ({@code turn.result}), else {@code end_turn}. */
  private AcpSchema.StopReason completedReason() {
    return AcpJson.constant(AcpSchema.StopReason.class, resultStopReason, AcpSchema.StopReason.END_TURN);
  }

  private AcpSchema.StopReason ended(String status, String reason) {
    return switch (status) {
      case "completed" -> cancelled ? AcpSchema.StopReason.CANCELLED : completedReason();
      case "stopped", "declined" -> AcpSchema.StopReason.CANCELLED;
      default -> {
        if (cancelled) {
          yield AcpSchema.StopReason.CANCELLED;
        }
        String why = errorMessage != null ? errorMessage : reason.isBlank() ? "no reason given" : reason;
        throw new AcpError(AcpError.INTERNAL_ERROR, "the turn on task " + task + " ended " + status + ": " + why,
            Json.mapper().createObjectNode().put("task", task).put("turn", turn).put("status", status));
      }
    };
  }

  private void update(AcpSchema.SessionUpdate update) {
    client.notify("session/update", new AcpSchema.SessionNotification(sessionId, update));
  }

  /** Stops the turn (the hub expires its pending decisions) and makes the prompt end with {@code cancelled}. */
  void cancel() {
    cancelled = true;
    try {
      hub.turnStop(task);
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
