package dev.roundhouse.lspbridge.lsp;

import com.google.gson.JsonObject;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.eclipse.lsp4j.MessageActionItem;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.ProgressParams;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.ShowMessageRequestParams;
import org.eclipse.lsp4j.WorkDoneProgressCreateParams;

/** A client that records what the bridge sends it and answers prompts with a lambda. Thread-safe. */
final class RecordingClient implements RoundhouseClient {
  final List<JsonObject> events = new CopyOnWriteArrayList<>();
  final List<JsonObject> decisions = new CopyOnWriteArrayList<>();
  final List<JsonObject> closedDecisions = new CopyOnWriteArrayList<>();
  final List<JsonObject> connections = new CopyOnWriteArrayList<>();
  final List<JsonObject> taskEvents = new CopyOnWriteArrayList<>();
  final List<JsonObject> taskConnections = new CopyOnWriteArrayList<>();
  final List<ShowMessageRequestParams> prompts = new CopyOnWriteArrayList<>();
  final List<MessageParams> messages = new CopyOnWriteArrayList<>();
  final List<ProgressParams> progress = new CopyOnWriteArrayList<>();
  final List<WorkDoneProgressCreateParams> progressCreated = new CopyOnWriteArrayList<>();
  volatile Function<ShowMessageRequestParams, MessageActionItem> promptAnswer = prompt -> null;

  @Override
  public void event(JsonObject event) {
    events.add(event);
  }

  @Override
  public void decision(JsonObject decision) {
    decisions.add(decision);
  }

  @Override
  public void decisionClosed(JsonObject closed) {
    closedDecisions.add(closed);
  }

  @Override
  public void connection(JsonObject state) {
    connections.add(state);
  }

  @Override
  public void taskEvent(JsonObject event) {
    taskEvents.add(event);
  }

  @Override
  public void taskConnection(JsonObject state) {
    taskConnections.add(state);
  }

  @Override
  public void telemetryEvent(Object object) {}

  @Override
  public void publishDiagnostics(PublishDiagnosticsParams diagnostics) {}

  @Override
  public void showMessage(MessageParams messageParams) {
    messages.add(messageParams);
  }

  @Override
  public CompletableFuture<MessageActionItem> showMessageRequest(ShowMessageRequestParams requestParams) {
    prompts.add(requestParams);
    return CompletableFuture.completedFuture(promptAnswer.apply(requestParams));
  }

  @Override
  public void logMessage(MessageParams message) {
    messages.add(message);
  }

  @Override
  public CompletableFuture<Void> createProgress(WorkDoneProgressCreateParams params) {
    progressCreated.add(params);
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public void notifyProgress(ProgressParams params) {
    progress.add(params);
  }
}
