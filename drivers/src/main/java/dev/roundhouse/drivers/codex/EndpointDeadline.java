package dev.roundhouse.drivers.codex;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The driver's own deadline on the model endpoint: Codex retries a dead or hanging endpoint for ever, so a
 * turn that hears nothing from its model for {@code limit} ends. Every notification of the turn's progress
 * (an item, a delta, usage) restarts the clock; a retry notice ({@code error} with {@code willRetry}) does
 * not. While a tool runs (a command, a patch, an MCP call) the model is not being asked, so the clock stops;
 * time the driver spends parked on an approval is excluded by {@link #progress()} after it. Time comes from
 * the injected clock.
 *
 * <p>Not thread-safe: the turn's thread feeds it.
 */
final class EndpointDeadline {
  private static final Set<String> NOT_TOOLS = Set.of("agentMessage", "reasoning", "userMessage", "plan", "hookPrompt");

  private final Clock clock;
  private final Duration limit;
  private final Set<String> runningTools = new HashSet<>();
  private Instant lastProgress;
  private String lastRetry;

  EndpointDeadline(Clock clock, Duration limit) {
    this.clock = clock;
    this.limit = limit;
    this.lastProgress = clock.instant();
  }

  /** Something happened that was not the endpoint stalling (a turn started, an approval was answered). */
  void progress() {
    lastProgress = clock.instant();
  }

  /** Feeds one notification of the turn. */
  void observe(String method, JsonNode params) {
    if (method.equals("error")) {
      if (params.path("willRetry").asBoolean(false)) {
        JsonNode error = params.path("error");
        String details = error.path("additionalDetails").asText("");
        lastRetry = error.path("message").asText("retrying") + (details.isEmpty() ? "" : " (" + details + ")");
      }
      return;
    }
    if (!method.startsWith("item/") && !method.startsWith("turn/") && !method.equals("thread/tokenUsage/updated")) {
      return;
    }
    progress();
    JsonNode item = params.path("item");
    if (item.isObject() && !NOT_TOOLS.contains(item.path("type").asText())) {
      if (method.equals("item/started")) {
        runningTools.add(item.path("id").asText());
      } else if (method.equals("item/completed")) {
        runningTools.remove(item.path("id").asText());
      }
    }
  }

  /** How long until the deadline passes; empty while a tool runs (no deadline then). */
  Optional<Duration> remaining() {
    if (!runningTools.isEmpty()) {
      return Optional.empty();
    }
    Duration left = limit.minus(Duration.between(lastProgress, clock.instant()));
    return Optional.of(left.isNegative() ? Duration.ZERO : left);
  }

  /** How long the endpoint has been silent; empty while a tool runs. */
  Optional<Duration> silentFor() {
    if (!runningTools.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(Duration.between(lastProgress, clock.instant()));
  }

  boolean expired() {
    return remaining().map(Duration::isZero).orElse(false);
  }

  Duration limit() {
    return limit;
  }

  /** The last retry notice Codex gave, such as "Reconnecting... 2/5 (stream disconnected ...)". */
  Optional<String> lastRetry() {
    return Optional.ofNullable(lastRetry);
  }
}
