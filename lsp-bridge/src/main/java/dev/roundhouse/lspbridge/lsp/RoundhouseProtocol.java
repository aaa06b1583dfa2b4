package dev.roundhouse.lspbridge.lsp;

import com.google.gson.JsonElement;
import java.util.concurrent.CompletableFuture;
import org.eclipse.lsp4j.jsonrpc.services.JsonRequest;
import org.eclipse.lsp4j.jsonrpc.services.JsonSegment;

/**
 * The {@code roundhouse/*} requests a client may send to the bridge, advertised in the {@code initialize}
 * result under {@code capabilities.experimental.roundhouse}. Each takes its params as a JSON object (checked
 * by the bridge, which names the offending field in a -32602 error) and answers with the hub's JSON. A Java
 * client can use this interface as (part of) its remote interface. See {@code docs/lsp-protocol.md}.
 */
@JsonSegment("roundhouse")
public interface RoundhouseProtocol {
  /** The version of this protocol, in {@code capabilities.experimental.roundhouse.version}. */
  int VERSION = 1;

  /** Every hub operation's descriptor: {@code {"operations": [...]}} as the hub lists them. */
  @JsonRequest
  CompletableFuture<JsonElement> operations(JsonElement params);

  /** {@code {name, arguments?}}: runs any hub operation; answers with its output. */
  @JsonRequest
  CompletableFuture<JsonElement> call(JsonElement params);

  /** {@code {project}}: the project's board ({@code project_board}). */
  @JsonRequest
  CompletableFuture<JsonElement> board(JsonElement params);

  /** {@code {task}}: one task ({@code task_get}). */
  @JsonRequest
  CompletableFuture<JsonElement> task(JsonElement params);

  /** {@code {project?, task?, include_closed?, limit?}}: decisions ({@code decision_list}). */
  @JsonRequest
  CompletableFuture<JsonElement> decisions(JsonElement params);

  /** {@code {decision, answer, message?, rule?}}: answers a decision ({@code decision_answer}). */
  @JsonRequest
  CompletableFuture<JsonElement> answerDecision(JsonElement params);

  /**
   * {@code {after?, types?}}: pushes hub events as {@code roundhouse/event}, replaying those after
   * {@code after} first. Replaces an earlier subscription.
   */
  @JsonRequest
  CompletableFuture<JsonElement> subscribe(JsonElement params);

  /** Ends the subscription; answers {@code {"subscribed": false}}. */
  @JsonRequest
  CompletableFuture<JsonElement> unsubscribe(JsonElement params);

  /**
   * {@code {task, after?}}: pushes the task's events as {@code roundhouse/taskEvent} (its current
   * generation, or those after {@code after}, then live, text deltas included). Answers
   * {@code {watching: true, task, after}} once the stream is open, before any of its events.
   */
  @JsonRequest
  CompletableFuture<JsonElement> watchTask(JsonElement params);

  /** {@code {task}}: stops watching the task; answers {@code {watching: false, task, was_watching}}. */
  @JsonRequest
  CompletableFuture<JsonElement> unwatchTask(JsonElement params);

  /** {@code {task, generation?, after?, limit?}}: one page of a task's transcript ({@code task_transcript}). */
  @JsonRequest
  CompletableFuture<JsonElement> transcript(JsonElement params);
}
