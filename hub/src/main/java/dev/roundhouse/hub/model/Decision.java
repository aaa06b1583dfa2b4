package dev.roundhouse.hub.model;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import java.time.Instant;
import java.util.List;

/**
 * Something parked on a human: a tool permission, an agent's question, a settings-drift check. Immutable.
 *
 * @param kind {@code permission}, {@code question} or {@code settings_drift}
 * @param status {@code pending}, {@code answered}, or {@code expired} (no answer came: stop, timeout,
 *     restart, unattended run; for a permission this is a denial)
 * @param title one line for lists and prompts
 * @param request the details a face renders (tool and input, question, changed files)
 * @param options the answers a face offers; an empty list means free text (questions)
 * @param answer the chosen option or text, when answered
 * @param message the answerer's note, or why it expired
 */
public record Decision(
    long id,
    String kind,
    Long projectId,
    Long taskId,
    Long turnId,
    String status,
    String title,
    JsonNode request,
    List<String> options,
    String answer,
    String message,
    Actor closedBy,
    Instant createdAt,
    Instant closedAt) {

  public static final String PERMISSION = "permission";
  public static final String QUESTION = "question";
  public static final String SETTINGS_DRIFT = "settings_drift";

  public static final String PENDING = "pending";
  public static final String ANSWERED = "answered";
  public static final String EXPIRED = "expired";

  public Decision {
    options = List.copyOf(options);
  }

  public boolean pending() {
    return status.equals(PENDING);
  }
}
