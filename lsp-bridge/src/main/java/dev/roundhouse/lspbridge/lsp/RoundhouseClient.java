package dev.roundhouse.lspbridge.lsp;

import com.google.gson.JsonObject;
import org.eclipse.lsp4j.jsonrpc.services.JsonNotification;
import org.eclipse.lsp4j.jsonrpc.services.JsonSegment;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * What the bridge sends a client that speaks {@code roundhouse/*} (one that put {@code roundhouse} in its
 * {@code capabilities.experimental}): the standard LSP client calls plus these notifications. A plain client
 * gets only the standard ones ({@code window/showMessageRequest} for decisions). See
 * {@code docs/lsp-protocol.md}.
 */
@JsonSegment("roundhouse")
public interface RoundhouseClient extends LanguageClient {
  /** A hub event of the subscription: {@code {seq, type, at, actor, project_id?, task_id?, data}}. */
  @JsonNotification
  void event(JsonObject event);

  /** A decision waits for an answer: the decision as the hub stores it ({@code id}, {@code options}, …). */
  @JsonNotification
  void decision(JsonObject decision);

  /** A decision was answered or expired: {@code {decision, status, answer?}}. */
  @JsonNotification
  void decisionClosed(JsonObject closed);

  /** The bridge lost or regained the hub's event stream: {@code {state: "lost"|"connected", last_seq, reason?}}. */
  @JsonNotification
  void connection(JsonObject state);

  /**
   * An event of a watched task ({@code roundhouse/watchTask}): stored ones with their {@code seq}, transient
   * ones ({@code turn.text_delta}) with {@code seq} 0.
   */
  @JsonNotification
  void taskEvent(JsonObject event);

  /** A watched task's stream: {@code {task, state: "connected"|"lost"|"ended", last_seq, reason?}}. */
  @JsonNotification
  void taskConnection(JsonObject state);
}
