package dev.roundhouse.drivers.codex;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.drivers.process.EndpointSilence;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.McpServerSpec;
import dev.roundhouse.hub.spi.AgentEndpoint;
import dev.roundhouse.hub.spi.TurnContext;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.spi.TurnRequest;
import dev.roundhouse.hub.spi.TurnStoppedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@link CodexDriver#run} call: one {@code codex app-server} process for the whole lingering session.
 * {@code initialize} → {@code initialized} → {@code thread/resume} (the stored thread) or {@code
 * thread/start} → {@code turn/start} per message, each answered until {@code turn/completed}; then the
 * next message from {@link TurnContext#awaitNextMessage} starts the next turn on the same thread.
 *
 * <p>Threads: the turn's own thread does everything (drains the inbox, maps notifications, answers
 * approvals, emits), so the session's state needs no lock. The one exception is {@link #stop}, which runs on
 * the thread that stops the turn and only reads volatile fields, sends {@code turn/interrupt}, waits for the
 * turn to end and kills the process group.
 */
final class CodexSession {
  private static final Logger LOG = LoggerFactory.getLogger(CodexSession.class);
  /** The hub's MCP server's name in the thread's config. */
  static final String HUB_SERVER = "roundhouse";
  /** How long Codex waits for the hub's MCP server to answer initialize and tools/list at a thread's start. */
  static final Duration HUB_STARTUP_TIMEOUT = Duration.ofSeconds(60);
  /** The variable that carries the task-scoped MCP token to Codex (never argv, never a file Codex keeps). */
  static final String TOKEN_VARIABLE = "HUB_MCP_TOKEN";
  private static final Duration POLL = Duration.ofMillis(250);

  private final CodexSettings settings;
  private final CodexDriver.Tuning tuning;
  private final TurnRequest request;
  private final TurnContext context;
  private final ItemEvents items;
  private final Approvals approvals;
  private final Optional<AgentEndpoint> endpoint;
  private final Consumer<List<String>> onModels;
  private volatile AppServer server;
  private volatile String threadId;
  private volatile String turnId;
  private volatile CompletableFuture<Void> turnDone = CompletableFuture.completedFuture(null);
  private String modelEndpoint = "the model endpoint";

  /** @param onModels receives the models {@code model/list} offers, for the driver's capabilities */
  CodexSession(CodexSettings settings, CodexDriver.Tuning tuning, TurnRequest request, TurnContext context, Consumer<List<String>> onModels) {
    this.onModels = onModels;
    this.settings = settings;
    this.tuning = tuning;
    this.request = request;
    this.context = context;
    this.items = new ItemEvents(HUB_SERVER, tuning.prices());
    this.approvals = new Approvals(context, items);
    this.endpoint = context.agentEndpoint();
  }

  void run() throws Exception {
    server = AppServer.start(settings.command().commandLine(List.of("app-server")), request.workingDirectory(), environment(), context.processes());
    tuning.observer().started(server);
    context.onStop(this::stop);
    try {
      open();
      String message = request.message();
      while (true) {
        runTurn(message);
        Optional<String> next = context.awaitNextMessage();
        if (next.isEmpty() || context.isStopped()) {
          return;
        }
        if (!server.isAlive()) {
          throw new RoundhouseException("codex_exited", server.exitReport() + " while the session lingered");
        }
        message = next.get();
      }
    } catch (InterruptedException e) {
      if (context.isStopped()) {
        throw new TurnStoppedException(request.turnId());
      }
      throw e;
    } finally {
      turnDone.complete(null);
      server.close();
      tuning.observer().ended(server);
    }
  }

  private Map<String, String> environment() {
    var environment = tuning.environment().get()
        .passPrefixes(List.of("CODEX_", "OPENAI_"))
        .putAll(settings.command().env())
        .putAll(request.environment());
    endpoint.ifPresent(agent -> environment.put(TOKEN_VARIABLE, agent.bearerToken()));
    return environment.toMap();
  }

  /** The handshake, the endpoint's description, and the thread (resumed, or new). */
  private void open() throws InterruptedException {
    ObjectNode init = Json.mapper().createObjectNode();
    init.putObject("clientInfo").put("name", "roundhouse").put("title", "Roundhouse").put("version", CodexDriver.CLIENT_VERSION);
    server.call("initialize", init, settings.requestTimeout());
    server.notify("initialized");
    CompletableFuture<JsonNode> config = server.request("config/read", Json.mapper().createObjectNode().put("cwd", cwd()));
    CompletableFuture<JsonNode> models = server.request("model/list", Json.mapper().createObjectNode());
    JsonNode thread = openThread();
    threadId = thread.path("thread").path("id").asText();
    String model = thread.path("model").asText(null);
    items.model(model);
    try {
      JsonNode configRead = server.await("config/read", config, settings.requestTimeout());
      modelEndpoint = ModelEndpoint.describe(configRead);
      models.thenAccept(list -> onModels.accept(CodexProbe.modelIds(configRead, list)));
    } catch (RoundhouseException e) {
      LOG.debug("codex config/read failed: {}", e.getMessage());
    }
    context.emit(new TurnEvent.SessionStarted(threadId, model));
  }

  private JsonNode openThread() throws InterruptedException {
    String resume = request.resumeSessionId();
    if (resume != null && !resume.isBlank()) {
      ObjectNode params = threadParams();
      params.put("threadId", resume);
      try {
        return server.call("thread/resume", params, settings.requestTimeout());
      } catch (AppServer.RequestFailed e) {
        if (!server.isAlive()) {
          throw e;
        }
        LOG.info("codex thread {} cannot be resumed ({}); starting a fresh thread seeded with the task's summaries", resume, e.getMessage());
      }
    }
    ObjectNode params = threadParams();
    String instructions = instructions();
    if (!instructions.isEmpty()) {
      params.put("developerInstructions", instructions);
    }
    return server.call("thread/start", params, settings.requestTimeout());
  }

  private ObjectNode threadParams() {
    ObjectNode params = Json.mapper().createObjectNode();
    params.put("cwd", cwd());
    params.put("approvalPolicy", request.permissionMode() != null && !request.permissionMode().isBlank()
        ? request.permissionMode() : settings.defaultApprovalPolicy());
    params.put("sandbox", settings.sandbox());
    if (request.model() != null && !request.model().isBlank()) {
      params.put("model", request.model());
    }
    ObjectNode servers = endpoint.isPresent() || !request.mcpServers().isEmpty()
        ? params.putObject("config").putObject("mcp_servers") : null;
    // The servers a face gave the turn (an ACP client's), under their own names; Codex asks before calling
    // their tools by its own rules, and each question comes to the hub's gate (Approvals).
    for (McpServerSpec spec : request.mcpServers()) {
      ObjectNode server = servers.putObject(spec.name());
      if (spec.transport().equals("http")) {
        server.put("url", spec.url());
        spec.headers().forEach(server.putObject("http_headers")::put);
      } else {
        server.put("command", spec.command());
        spec.args().forEach(server.putArray("args")::add);
        spec.env().forEach(server.putObject("env")::put);
      }
    }
    endpoint.ifPresent(agent -> {
      ObjectNode hub = servers.putObject(HUB_SERVER);
      hub.put("url", agent.url().toString());
      hub.put("bearer_token_env_var", TOKEN_VARIABLE);
      // An optional server is given a short grace and the turn's first request may go out without its tools
      // (measured at load 15: the model's call to suggest_task found no such tool). Required, Codex waits for
      // its initialize and tools/list, up to the timeout (10 s by default: a busy hub can take longer).
      hub.put("required", true);
      hub.put("startup_timeout_sec", (double) HUB_STARTUP_TIMEOUT.toSeconds());
      // The hub's own tools: the hub applies its actor rules to every call, so Codex need not ask.
      hub.put("default_tools_approval_mode", "approve");
    });
    return params;
  }

  /**
   * The turn's own prompt (a task that is not coding work), the task's context and, for a fresh thread, the
   * summaries of the task's earlier sessions.
   */
  private String instructions() {
    List<String> parts = new ArrayList<>();
    if (!request.codingTask()) {
      parts.add(request.systemPrompt().strip());
    }
    if (request.context() != null && !request.context().isBlank()) {
      parts.add(request.context().strip());
    }
    if (!request.priorSummaries().isEmpty()) {
      parts.add("Summaries of earlier sessions on this task, oldest first:\n\n" + String.join("\n\n---\n\n", request.priorSummaries()));
    }
    return String.join("\n\n", parts);
  }

  private void runTurn(String message) throws InterruptedException {
    ObjectNode params = Json.mapper().createObjectNode();
    params.put("threadId", threadId);
    params.putArray("input").addObject().put("type", "text").put("text", message);
    CompletableFuture<Void> done = new CompletableFuture<>();
    turnDone = done;
    JsonNode started = server.call("turn/start", params, settings.requestTimeout());
    String id = started.path("turn").path("id").asText();
    turnId = id;
    items.turnStarted(id);
    EndpointDeadline deadline = new EndpointDeadline(context.clock(), settings.endpointDeadline());
    EndpointSilence silence = new EndpointSilence("codex", settings.endpointDeadline());
    try {
      while (true) {
        if (context.isStopped()) {
          throw new TurnStoppedException(request.turnId());
        }
        announceSilence(deadline, silence);
        AppServer.Incoming incoming = server.next(deadline.remaining().filter(left -> left.compareTo(POLL) < 0).orElse(POLL));
        if (incoming == null) {
          if (deadline.expired()) {
            throw endpointDead(deadline);
          }
          continue;
        }
        if (incoming == AppServer.Incoming.END) {
          if (context.isStopped()) {
            throw new TurnStoppedException(request.turnId());
          }
          throw new RoundhouseException("codex_exited", server.exitReport() + " during the turn");
        }
        if (incoming.isRequest()) {
          approvals.answer(server, incoming);
          deadline.progress();
          continue;
        }
        String method = incoming.method();
        JsonNode body = incoming.params();
        if (body.has("threadId") && !threadId.equals(body.path("threadId").asText())) {
          continue; // another thread's (a sub-agent's) notifications
        }
        deadline.observe(method, body);
        for (TurnEvent event : items.map(method, body)) {
          context.emit(event);
          tuning.observer().emitted(event, System.nanoTime() - incoming.readNanos());
        }
        if (method.equals("turn/completed") && id.equals(body.path("turn").path("id").asText())) {
          finish(body.path("turn"));
          return;
        }
      }
    } finally {
      turnId = null;
      done.complete(null);
    }
  }

  /** Tells the transcript when the endpoint has been quiet a while (not while a tool runs). */
  private void announceSilence(EndpointDeadline deadline, EndpointSilence silence) {
    Optional<Duration> quiet = deadline.silentFor();
    if (quiet.isEmpty()) {
      silence.heard();
    } else if (!deadline.expired()) {
      silence.due(quiet.get(), deadline.lastRetry().orElse(null)).ifPresent(context::emit);
    }
  }

  private void finish(JsonNode turn) {
    String status = turn.path("status").asText();
    switch (status) {
      case "completed" -> context.emit(new TurnEvent.Result("end_turn", items.lastMessage()));
      case "interrupted" -> {
        if (context.isStopped()) {
          throw new TurnStoppedException(request.turnId());
        }
        context.emit(new TurnEvent.Result("cancelled", items.lastMessage()));
      }
      default -> throw new RoundhouseException("codex_turn_failed", failure(turn.path("error")));
    }
  }

  /**
   * A failed turn's error in one sentence, naming the endpoint, and the HTTP status whenever Codex's error
   * tells it or implies it: Codex's error for a 500 is only {@code internalServerError} with "We're currently
   * experiencing high demand ..." (the endpoint's status and body are dropped), which still is the endpoint's 500.
   */
  private String failure(JsonNode error) {
    String message = error.path("message").asText("no reason given");
    String inner = ModelEndpoint.innerMessage(message);
    JsonNode info = error.path("codexErrorInfo");
    Optional<Integer> status = ModelEndpoint.httpStatus(info).or(() -> ModelEndpoint.impliedStatus(info));
    String kind = info.isTextual() && !info.asText().equals("other") ? " (" + info.asText() + ")" : "";
    if (inner != null || status.isPresent() || info.isObject()) {
      return modelEndpoint + " failed" + status.map(code -> " with HTTP " + code).orElse("") + kind + ": " + (inner != null ? inner : message);
    }
    return "codex turn failed" + kind + ": " + message;
  }

  private RoundhouseException endpointDead(EndpointDeadline deadline) {
    interrupt();
    return new RoundhouseException("codex_endpoint_timeout", modelEndpoint + " gave no answer within " + format(deadline.limit())
        + deadline.lastRetry().map(retry -> "; codex last said: " + retry).orElse(" (codex kept waiting on it)"));
  }

  private void interrupt() {
    String thread = threadId;
    String turn = turnId;
    if (thread != null && turn != null && server.isAlive()) {
      server.request("turn/interrupt", Json.mapper().createObjectNode().put("threadId", thread).put("turnId", turn));
    }
  }

  /**
   * The stop action (on the stopping thread): {@code turn/interrupt}, up to the stop grace for the turn to
   * end, then the process group is killed either way, so nothing is left behind.
   */
  private void stop() {
    AppServer running = server;
    if (running == null) {
      return;
    }
    interrupt();
    try {
      turnDone.get(settings.stopGrace().toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      LOG.info("codex did not end its turn within {} of turn/interrupt; killing its process group", settings.stopGrace());
    }
    running.terminate(Duration.ofSeconds(1));
  }

  private String cwd() {
    return request.workingDirectory().toAbsolutePath().toString();
  }

  private static String format(Duration duration) {
    return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
  }
}
