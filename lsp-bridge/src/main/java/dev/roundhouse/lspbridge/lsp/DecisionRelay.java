package dev.roundhouse.lspbridge.lsp;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.gson.JsonObject;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hubclient.EventFollower;
import dev.roundhouse.hubclient.HubAddress;
import dev.roundhouse.hubclient.HubHttp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.eclipse.lsp4j.MessageActionItem;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.ShowMessageRequestParams;

/**
 * Brings every pending decision to the client once: those pending when the bridge attaches (and again after
 * a reconnect) from {@code decision_list}, then each {@code decision.opened} from the event stream.
 *
 * <ul>
 *   <li>A client that speaks {@code roundhouse/*} gets {@code roundhouse/decision} (and
 *       {@code roundhouse/decisionClosed} when one is answered or expires) and answers with
 *       {@code roundhouse/answerDecision}.
 *   <li>A plain LSP client gets {@code window/showMessageRequest} with one button per option; the chosen
 *       button is sent to {@code decision_answer}. A dismissed prompt answers nothing (a permission nobody
 *       answers is denied by the hub when it times out). A decision without options (a free-text question)
 *       is shown with {@code window/showMessage}, since buttons cannot carry text.
 * </ul>
 *
 * <p>Thread-safety: events arrive on the follower's thread; answers from prompts run on {@code executor};
 * the set of offered ids is concurrent. No lock is held while calling out.
 */
final class DecisionRelay implements EventFollower.Listener, AutoCloseable {
  private static final Map<String, String> LABELS =
      Map.of(
          "allow_once", "Allow once",
          "allow_always", "Always allow",
          "deny", "Deny",
          "adopt", "Adopt",
          "decline", "Decline",
          "approve", "Approve",
          "reject", "Reject");

  private final HubHttp hub;
  private final Supplier<HubAddress> locator;
  private final RoundhouseClient client;
  private final boolean speaksRoundhouse;
  private final Duration retryDelay;
  private final Executor executor;
  private final Set<Long> offered = ConcurrentHashMap.newKeySet();
  private volatile EventFollower follower;

  DecisionRelay(HubHttp hub, Supplier<HubAddress> locator, RoundhouseClient client, boolean speaksRoundhouse, Duration retryDelay, Executor executor) {
    this.hub = hub;
    this.locator = locator;
    this.client = client;
    this.speaksRoundhouse = speaksRoundhouse;
    this.retryDelay = retryDelay;
    this.executor = executor;
  }

  void start() {
    follower = new EventFollower(() -> HubHttp.editorFace(locator), null, retryDelay, "roundhouse-lsp-decisions", this);
  }

  @Override
  public void connected(boolean resumed, long lastSeq) {
    // The stream is open, so a decision opened from now on arrives as an event; the ones already pending
    // come from the list. A decision in both is offered once.
    try {
      for (JsonNode decision : hub.callTree("decision_list", Map.of()).path("decisions")) {
        if (decision.path("status").asText("pending").equals("pending")) {
          offer(decision);
        }
      }
    } catch (RoundhouseException e) {
      client.logMessage(new MessageParams(MessageType.Warning, "Roundhouse: could not list pending decisions: " + e.getMessage()));
    }
  }

  @Override
  public void event(long seq, JsonNode event) {
    JsonNode decision = event.path("data").path("decision");
    switch (event.path("type").asText()) {
      case "decision.opened" -> offer(decision);
      case "decision.answered", "decision.expired" -> closed(decision);
      default -> {
        // not a decision
      }
    }
  }

  private void offer(JsonNode decision) {
    if (!decision.path("id").canConvertToLong() || !offered.add(decision.get("id").asLong())) {
      return;
    }
    if (speaksRoundhouse) {
      client.decision(Gsons.of(decision).getAsJsonObject());
    } else {
      prompt(decision);
    }
  }

  private void closed(JsonNode decision) {
    if (!speaksRoundhouse || !decision.path("id").canConvertToLong()) {
      return;
    }
    JsonObject closed = new JsonObject();
    closed.addProperty("decision", decision.get("id").asLong());
    closed.addProperty("status", decision.path("status").asText());
    if (decision.hasNonNull("answer")) {
      closed.addProperty("answer", decision.get("answer").asText());
    }
    if (decision.hasNonNull("closed_by")) {
      closed.addProperty("closed_by", decision.get("closed_by").asText());
    }
    client.decisionClosed(closed);
  }

  /** The plain-LSP fallback: one button per option. */
  private void prompt(JsonNode decision) {
    long id = decision.get("id").asLong();
    String text = text(decision);
    MessageType type = decision.path("kind").asText().equals("permission") ? MessageType.Warning : MessageType.Info;
    Map<String, String> answers = new LinkedHashMap<>();
    for (JsonNode option : decision.path("options")) {
      answers.put(LABELS.getOrDefault(option.asText(), option.asText()), option.asText());
    }
    if (answers.isEmpty()) {
      client.showMessage(new MessageParams(type, text + " (answer it in Roundhouse: decision " + id + ")"));
      return;
    }
    List<MessageActionItem> actions = new ArrayList<>();
    answers.keySet().forEach(label -> actions.add(new MessageActionItem(label)));
    ShowMessageRequestParams request = new ShowMessageRequestParams(actions);
    request.setType(type);
    request.setMessage(text);
    client
        .showMessageRequest(request)
        .thenAcceptAsync(
            chosen -> {
              if (chosen == null || chosen.getTitle() == null) {
                return; // dismissed: left pending
              }
              String answer = answers.getOrDefault(chosen.getTitle(), chosen.getTitle());
              try {
                hub.callTree("decision_answer", Map.of("decision", id, "answer", answer));
              } catch (RoundhouseException e) {
                client.showMessage(new MessageParams(MessageType.Error, "Roundhouse: " + e.getMessage()));
              }
            },
            executor)
        .exceptionally(
            failure -> {
              client.logMessage(new MessageParams(MessageType.Warning, "Roundhouse: decision " + id + " prompt failed: " + failure.getMessage()));
              return null;
            });
  }

  private static String text(JsonNode decision) {
    StringBuilder text = new StringBuilder("Roundhouse");
    if (decision.hasNonNull("task_id")) {
      text.append(" · task #").append(decision.get("task_id").asLong());
    }
    text.append(": ").append(decision.path("title").asText("a decision waits for you"));
    String message = decision.path("message").asText("");
    if (!message.isBlank() && !message.equals(decision.path("title").asText())) {
      text.append('\n').append(message);
    }
    return text.toString();
  }

  @Override
  public void close() {
    EventFollower current = follower;
    if (current != null) {
      current.close();
    }
  }
}
