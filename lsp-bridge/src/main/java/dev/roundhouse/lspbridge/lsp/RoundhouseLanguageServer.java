package dev.roundhouse.lspbridge.lsp;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hubclient.EventFollower;
import dev.roundhouse.hubclient.HubAddress;
import dev.roundhouse.hubclient.HubErrorException;
import dev.roundhouse.hubclient.HubHttp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.eclipse.lsp4j.InitializeParams;
import org.eclipse.lsp4j.InitializeResult;
import org.eclipse.lsp4j.InitializedParams;
import org.eclipse.lsp4j.ProgressParams;
import org.eclipse.lsp4j.ServerCapabilities;
import org.eclipse.lsp4j.ServerInfo;
import org.eclipse.lsp4j.WorkDoneProgressBegin;
import org.eclipse.lsp4j.WorkDoneProgressCancelParams;
import org.eclipse.lsp4j.WorkDoneProgressCreateParams;
import org.eclipse.lsp4j.WorkDoneProgressEnd;
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseError;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;
import org.eclipse.lsp4j.services.LanguageServer;
import org.eclipse.lsp4j.services.NotebookDocumentService;
import org.eclipse.lsp4j.services.TextDocumentService;
import org.eclipse.lsp4j.services.WorkspaceService;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.roundhouse.hub.core.Locks;

/**
 * The language server the bridge runs for one client: the standard lifecycle ({@code initialize},
 * {@code initialized}, {@code shutdown}, {@code exit}) and the {@code roundhouse/*} requests, each a thin
 * codec over one hub call. It holds no state of the hub's: only the client's capabilities, its
 * subscription and the decision relay.
 *
 * <p>Cancelling a request's future ({@code $/cancelRequest}, or {@code window/workDoneProgress/cancel} on its
 * progress token) interrupts the thread running its hub call, which aborts the HTTP request; LSP4J answers
 * the request with -32800 RequestCancelled.
 *
 * <p>Thread-safety: LSP4J calls the methods on its reader thread; every hub call runs on {@code executor}
 * (virtual threads), so a slow hub never blocks the reader. {@code lock} guards the subscription, the
 * relay and the task watches fields; followers are closed outside it.
 */
final class RoundhouseLanguageServer implements LanguageServer, RoundhouseProtocol {
  static final List<String> REQUESTS =
      List.of(
          "operations", "call", "board", "task", "decisions", "answerDecision", "subscribe", "unsubscribe",
          "watchTask", "unwatchTask", "transcript");
  static final List<String> NOTIFICATIONS =
      List.of("event", "decision", "decisionClosed", "connection", "taskEvent", "taskConnection");

  static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(10);

  private final Supplier<HubAddress> locator;
  private final HubHttp hub;
  private final LspBridge.Settings settings;
  private final ExecutorService executor;
  private final Runnable onExit;
  private final ReentrantLock lock = Locks.tracked("lsp-server");
  private RoundhouseClient client;
  private boolean speaksRoundhouse;
  private boolean clientShowsProgress;

  @GuardedBy("lock")
  private EventFollower subscription;

  @GuardedBy("lock")
  private DecisionRelay relay;
  private TaskWatches watches;
  private volatile boolean shutdownRequested;
  private final Set<CompletableFuture<?>> inFlight = ConcurrentHashMap.newKeySet();
  /** Calls reporting progress, by token: {@code window/workDoneProgress/cancel} cancels them. */
  private final Map<String, CompletableFuture<?>> progressCalls = new ConcurrentHashMap<>();

  RoundhouseLanguageServer(Supplier<HubAddress> locator, LspBridge.Settings settings, ExecutorService executor, Runnable onExit) {
    this.locator = locator;
    this.hub = HubHttp.editorFace(locator);
    this.settings = settings;
    this.executor = executor;
    this.onExit = onExit;
  }

  void connect(RoundhouseClient client) {
    this.client = client;
    this.watches = new TaskWatches(locator, settings.retryDelay(), client);
  }

  boolean shutdownRequested() {
    return shutdownRequested;
  }

  // ---- lifecycle

  @Override
  public CompletableFuture<InitializeResult> initialize(InitializeParams params) {
    boolean roundhouse = false;
    boolean progress = false;
    if (params != null && params.getCapabilities() != null) {
      Object experimental = params.getCapabilities().getExperimental();
      if (experimental instanceof JsonObject object && object.has("roundhouse")) {
        JsonElement value = object.get("roundhouse");
        roundhouse = !value.isJsonNull() && !(value.isJsonPrimitive() && !value.getAsBoolean());
      }
      progress = params.getCapabilities().getWindow() != null && Boolean.TRUE.equals(params.getCapabilities().getWindow().getWorkDoneProgress());
    }
    lock.lock();
    try {
      speaksRoundhouse = roundhouse;
      clientShowsProgress = progress;
    } finally {
      lock.unlock();
    }
    ServerCapabilities capabilities = new ServerCapabilities();
    JsonObject advertised = new JsonObject();
    advertised.addProperty("version", VERSION);
    advertised.add("requests", names(REQUESTS));
    advertised.add("notifications", names(NOTIFICATIONS));
    JsonObject experimental = new JsonObject();
    experimental.add("roundhouse", advertised);
    capabilities.setExperimental(experimental);
    return CompletableFuture.completedFuture(new InitializeResult(capabilities, new ServerInfo("roundhouse", Hub.version())));
  }

  private static JsonArray names(List<String> names) {
    JsonArray array = new JsonArray();
    names.forEach(name -> array.add("roundhouse/" + name));
    return array;
  }

  @Override
  public void initialized(InitializedParams params) {
    DecisionRelay started;
    lock.lock();
    try {
      if (relay != null) {
        return;
      }
      relay = new DecisionRelay(hub, locator, client, speaksRoundhouse, settings.retryDelay(), executor);
      started = relay;
    } finally {
      lock.unlock();
    }
    started.start();
  }

  @Override
  public CompletableFuture<Object> shutdown() {
    shutdownRequested = true;
    stopFollowers();
    // Answer shutdown once the hub calls already asked for have answered (or after a bound).
    return CompletableFuture.allOf(inFlight.toArray(CompletableFuture<?>[]::new))
        .orTimeout(SHUTDOWN_GRACE.toMillis(), TimeUnit.MILLISECONDS)
        .handle((done, failure) -> null);
  }

  @Override
  public void exit() {
    stopFollowers();
    onExit.run();
  }

  void stopFollowers() {
    EventFollower oldSubscription;
    DecisionRelay oldRelay;
    lock.lock();
    try {
      oldSubscription = subscription;
      oldRelay = relay;
      subscription = null;
      relay = null;
    } finally {
      lock.unlock();
    }
    if (oldSubscription != null) {
      oldSubscription.close();
    }
    if (oldRelay != null) {
      oldRelay.close();
    }
    if (watches != null) {
      watches.close();
    }
  }

  /** Stops the followers and aborts hub calls still running: the end of the session. */
  void close() {
    stopFollowers();
    hub.close();
  }

  @Override
  public TextDocumentService getTextDocumentService() {
    return NoDocuments.INSTANCE;
  }

  @Override
  public WorkspaceService getWorkspaceService() {
    return NoDocuments.INSTANCE;
  }

  @Override
  public NotebookDocumentService getNotebookDocumentService() {
    return NoDocuments.INSTANCE;
  }

  // ---- roundhouse/*

  @Override
  public CompletableFuture<JsonElement> operations(JsonElement params) {
    Params.of("roundhouse/operations", params);
    return async(() -> Gsons.output("the operation list", hub.operations()));
  }

  @Override
  public CompletableFuture<JsonElement> call(JsonElement params) {
    Params read = Params.of("roundhouse/call", params);
    String name = read.string("name", "an operation name, such as task_create");
    JsonObject arguments = read.optionalObject("arguments").orElseGet(JsonObject::new);
    Optional<JsonElement> token = Optional.ofNullable(read.object().get("workDoneToken")).filter(t -> !t.isJsonNull());
    return withProgress(name, token, async(() -> Gsons.output(name, hub.call(name, arguments.toString()))));
  }

  @Override
  public CompletableFuture<JsonElement> board(JsonElement params) {
    String project = Params.of("roundhouse/board", params).idOrName("project", "a project id or name");
    return operation("project_board", Map.of("project", project));
  }

  @Override
  public CompletableFuture<JsonElement> task(JsonElement params) {
    long task = Params.of("roundhouse/task", params).number("task", "a task id");
    return operation("task_get", Map.of("task", task));
  }

  @Override
  public CompletableFuture<JsonElement> decisions(JsonElement params) {
    Params read = Params.of("roundhouse/decisions", params);
    Map<String, Object> input = new LinkedHashMap<>();
    read.optionalString("project", "a project id or name").ifPresent(v -> input.put("project", v));
    read.optionalNumber("task", "a task id").ifPresent(v -> input.put("task", v));
    read.optionalNumber("limit", "how many").ifPresent(v -> input.put("limit", v));
    JsonElement includeClosed = read.object().get("include_closed");
    if (includeClosed != null && !includeClosed.isJsonNull()) {
      if (!includeClosed.isJsonPrimitive() || !includeClosed.getAsJsonPrimitive().isBoolean()) {
        throw Params.invalid("roundhouse/decisions: params.include_closed must be true or false, not " + includeClosed);
      }
      input.put("include_closed", includeClosed.getAsBoolean());
    }
    return operation("decision_list", input);
  }

  @Override
  public CompletableFuture<JsonElement> answerDecision(JsonElement params) {
    Params read = Params.of("roundhouse/answerDecision", params);
    Map<String, Object> input = new LinkedHashMap<>();
    input.put("decision", read.number("decision", "the decision's id"));
    input.put("answer", read.string("answer", "one of the decision's options, or the text answering a question"));
    read.optionalString("message", "a note for the agent").ifPresent(v -> input.put("message", v));
    read.optionalString("rule", "the command prefix to remember").ifPresent(v -> input.put("rule", v));
    return operation("decision_answer", input);
  }

  @Override
  public CompletableFuture<JsonElement> subscribe(JsonElement params) {
    Params read = Params.of("roundhouse/subscribe", params);
    Long after = read.optionalNumber("after", "the last sequence number the client has").orElse(null);
    List<String> types = new ArrayList<>();
    JsonElement typesParam = read.object().get("types");
    if (typesParam != null && !typesParam.isJsonNull()) {
      if (!typesParam.isJsonArray()) {
        throw Params.invalid("roundhouse/subscribe: params.types must be an array of event types or prefixes such as \"turn.\", not " + typesParam);
      }
      for (JsonElement type : typesParam.getAsJsonArray()) {
        if (!type.isJsonPrimitive() || !type.getAsJsonPrimitive().isString()) {
          throw Params.invalid("roundhouse/subscribe: params.types must hold strings, not " + type);
        }
        types.add(type.getAsString());
      }
    }
    RoundhouseClient target = client;
    EventFollower.Listener listener =
        new EventFollower.Listener() {
          @Override
          public void event(long seq, JsonNode event) {
            String type = event.path("type").asText();
            if (types.isEmpty() || types.stream().anyMatch(t -> t.endsWith(".") ? type.startsWith(t) : type.equals(t))) {
              target.event(Gsons.of(event).getAsJsonObject());
            }
          }

          @Override
          public void connected(boolean resumed, long lastSeq) {
            target.connection(state("connected", lastSeq, null));
          }

          @Override
          public void lost(String reason, long lastSeq) {
            target.connection(state("lost", lastSeq, reason));
          }
        };
    EventFollower old;
    lock.lock();
    try {
      old = subscription;
      subscription = null;
    } finally {
      lock.unlock();
    }
    if (old != null) {
      old.close();
    }
    EventFollower follower = new EventFollower(() -> HubHttp.editorFace(locator), after, settings.retryDelay(), "roundhouse-lsp-subscription", listener);
    lock.lock();
    try {
      subscription = follower;
    } finally {
      lock.unlock();
    }
    JsonObject result = new JsonObject();
    result.addProperty("subscribed", true);
    if (after != null) {
      result.addProperty("after", after);
    }
    return CompletableFuture.completedFuture(result);
  }

  @Override
  public CompletableFuture<JsonElement> unsubscribe(JsonElement params) {
    Params.of("roundhouse/unsubscribe", params);
    EventFollower old;
    lock.lock();
    try {
      old = subscription;
      subscription = null;
    } finally {
      lock.unlock();
    }
    if (old != null) {
      old.close();
    }
    JsonObject result = new JsonObject();
    result.addProperty("subscribed", false);
    return CompletableFuture.completedFuture(result);
  }

  @Override
  public CompletableFuture<JsonElement> watchTask(JsonElement params) {
    Params read = Params.of("roundhouse/watchTask", params);
    long task = read.number("task", "a task id");
    Long after = read.optionalNumber("after", "the last sequence number the client has of this task").orElse(null);
    if (shutdownRequested) {
      throw new ResponseErrorException(new ResponseError(ResponseErrorCode.InvalidRequest, "roundhouse/watchTask: the bridge is shutting down", null));
    }
    return watches.watch(task, after);
  }

  @Override
  public CompletableFuture<JsonElement> unwatchTask(JsonElement params) {
    long task = Params.of("roundhouse/unwatchTask", params).number("task", "a task id");
    boolean was = watches.unwatch(task);
    JsonObject result = new JsonObject();
    result.addProperty("watching", false);
    result.addProperty("task", task);
    result.addProperty("was_watching", was);
    return CompletableFuture.completedFuture(result);
  }

  @Override
  public CompletableFuture<JsonElement> transcript(JsonElement params) {
    Params read = Params.of("roundhouse/transcript", params);
    Map<String, Object> input = new LinkedHashMap<>();
    input.put("task", read.number("task", "a task id"));
    read.optionalNumber("generation", "a generation number").ifPresent(v -> input.put("generation", v));
    read.optionalNumber("after", "the last sequence number of the previous page").ifPresent(v -> input.put("after", v));
    read.optionalNumber("limit", "how many entries, 1 to 5000").ifPresent(v -> input.put("limit", v));
    return operation("task_transcript", input);
  }

  @Override
  public void cancelProgress(WorkDoneProgressCancelParams params) {
    if (params == null || params.getToken() == null) {
      return;
    }
    CompletableFuture<?> call = progressCalls.get(tokenKey(params.getToken()));
    if (call != null) {
      call.cancel(true);
    }
  }

  private static String tokenKey(Either<String, Integer> token) {
    return token.isLeft() ? "s:" + token.getLeft() : "i:" + token.getRight();
  }

  private static JsonObject state(String state, long lastSeq, String reason) {
    JsonObject object = new JsonObject();
    object.addProperty("state", state);
    object.addProperty("last_seq", lastSeq);
    if (reason != null) {
      object.addProperty("reason", reason);
    }
    return object;
  }

  // ---- plumbing

  /** Runs a hub operation; its output goes to the client as the hub wrote it (text to Gson, no Jackson tree). */
  private CompletableFuture<JsonElement> operation(String name, Map<String, Object> input) {
    return async(() -> Gsons.output(name, hub.call(name, Json.write(input))));
  }

  /**
   * Runs {@code work} (a hub call) on a thread of its own. Cancelling the returned future interrupts that
   * thread, which aborts the hub call's HTTP request.
   */
  private CompletableFuture<JsonElement> async(Supplier<JsonElement> work) {
    CompletableFuture<JsonElement> call = new CompletableFuture<>();
    Future<?> running =
        executor.submit(
            () -> {
              try {
                call.complete(work.get());
              } catch (RoundhouseException e) {
                call.completeExceptionally(call.isCancelled() ? e : responseError(e));
              } catch (RuntimeException e) {
                call.completeExceptionally(e);
              }
            });
    inFlight.add(call);
    call.whenComplete(
        (result, failure) -> {
          inFlight.remove(call);
          if (call.isCancelled()) {
            running.cancel(true);
          }
        });
    return call;
  }

  /** A hub failure as the LSP error a client sees: the hub's sentence, its code and status in {@code data}. */
  static ResponseErrorException responseError(RoundhouseException failure) {
    JsonObject data = new JsonObject();
    data.addProperty("hub_code", failure.code());
    int code = ResponseErrorCode.RequestFailed.getValue();
    if (failure instanceof HubErrorException hubError) {
      data.addProperty("status", hubError.status());
      if (hubError.status() == 400 || failure.code().equals("unknown_operation")) {
        code = ResponseErrorCode.InvalidParams.getValue();
      }
    }
    return new ResponseErrorException(new ResponseError(code, failure.getMessage(), data));
  }

  /**
   * Reports {@code $/progress} for a call still running after {@link LspBridge.Settings#progressDelay()}:
   * on the client's {@code workDoneToken} when it sent one, else on a token the bridge creates with
   * {@code window/workDoneProgress/create} (only when the client said it shows progress).
   */
  private <T> CompletableFuture<T> withProgress(String name, Optional<JsonElement> clientToken, CompletableFuture<T> call) {
    boolean showsProgress;
    lock.lock();
    try {
      showsProgress = clientShowsProgress;
    } finally {
      lock.unlock();
    }
    if (clientToken.isEmpty() && !showsProgress) {
      return call;
    }
    RoundhouseClient target = client;
    CompletableFuture<Either<String, Integer>> begun = new CompletableFuture<>();
    CompletableFuture.delayedExecutor(settings.progressDelay().toMillis(), TimeUnit.MILLISECONDS, executor)
        .execute(
            () -> {
              if (call.isDone() && !settings.progressDelay().isZero()) {
                begun.cancel(false);
                return;
              }
              Either<String, Integer> token = clientToken.map(RoundhouseLanguageServer::token).orElseGet(() -> Either.forLeft("roundhouse-" + UUID.randomUUID()));
              CompletableFuture<Void> created =
                  clientToken.isPresent() ? CompletableFuture.completedFuture(null) : target.createProgress(new WorkDoneProgressCreateParams(token));
              created.whenComplete(
                  (ok, failure) -> {
                    if (failure != null) {
                      begun.cancel(false);
                      return;
                    }
                    WorkDoneProgressBegin begin = new WorkDoneProgressBegin();
                    begin.setTitle("Roundhouse: " + name);
                    begin.setCancellable(true);
                    progressCalls.put(tokenKey(token), call);
                    target.notifyProgress(new ProgressParams(token, Either.forLeft(begin)));
                    begun.complete(token);
                  });
            });
    call.whenComplete(
        (result, failure) ->
            begun.thenAccept(
                token -> {
                  progressCalls.remove(tokenKey(token));
                  WorkDoneProgressEnd end = new WorkDoneProgressEnd();
                  end.setMessage(failure == null ? "done" : call.isCancelled() ? "cancelled" : "failed");
                  target.notifyProgress(new ProgressParams(token, Either.forLeft(end)));
                }));
    return call;
  }

  private static Either<String, Integer> token(JsonElement token) {
    if (token.isJsonPrimitive() && token.getAsJsonPrimitive().isNumber()) {
      return Either.forRight(token.getAsInt());
    }
    return Either.forLeft(token.getAsString());
  }
}
