package dev.roundhouse.drivers.acp;

import com.agentclientprotocol.sdk.spec.AcpSchema;
import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.drivers.process.ChildEnvironment;
import dev.roundhouse.drivers.process.EndpointSilence;
import dev.roundhouse.hub.spi.AgentDriver;
import dev.roundhouse.hub.spi.AgentEndpoint;
import dev.roundhouse.hub.spi.AuthStatus;
import dev.roundhouse.hub.spi.DriverCapabilities;
import dev.roundhouse.hub.spi.TurnContext;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.spi.TurnRequest;
import dev.roundhouse.hub.spi.TurnStoppedException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A driver for one agent that speaks the Agent Client Protocol over stdio ({@link AcpAgentConfig}): Gemini
 * CLI, or any other ACP agent the user configures. One agent process per turn, which lingers with its
 * session open and takes the task's next message as its next prompt.
 *
 * <p>A turn: start the agent in a process group of its own; {@code initialize} (no file system or terminal
 * offered: the agent uses its own tools, and asks before using them); {@code session/load} of the turn's
 * session when the agent can load and there is one, else (or when the load fails) {@code session/new} with
 * the task's context and summaries in the first prompt; the hub's MCP endpoint goes in as an HTTP server
 * when the agent takes those; then {@code session/prompt}, its updates mapped by {@link PromptTurn}. A stop
 * sends {@code session/cancel} and kills the process group if the prompt has not ended within the agent's
 * {@code cancelGrace}.
 *
 * <p>Thread-safe: turns of different tasks run at once, each with its own agent process.
 */
public final class AcpDriver implements AgentDriver {
  private static final Logger LOG = LoggerFactory.getLogger(AcpDriver.class);
  private static final int PROTOCOL_VERSION = 1;

  private final AcpAgentConfig config;
  private final Tuning tuning;
  private final AuthCheck auth;
  private final AtomicReference<AgentFacts> facts = new AtomicReference<>(AgentFacts.UNKNOWN);

  /**
   * What tests change.
   *
   * @param hubEnvironment the hub's environment, filtered by {@link ChildEnvironment} for the agent
   * @param lineObserver sees each line the agent writes (the latency benchmark)
   * @param replayQuiet after {@code session/load}, how long the agent must be silent before the replayed
   *     conversation counts as over
   * @param replayMax the longest wait for that silence
   * @param endpointDeadline how long a prompt may hear nothing from the agent (while no permission request
   *     is open and no tool runs) before it ends: agents retry a failing model endpoint for minutes in silence
   */
  record Tuning(
      Supplier<Map<String, String>> hubEnvironment, LineObserver lineObserver, Duration replayQuiet, Duration replayMax, Duration endpointDeadline) {
    static Tuning defaults() {
      return new Tuning(System::getenv, LineObserver.NONE, Duration.ofMillis(200), Duration.ofSeconds(10), Duration.ofMinutes(3));
    }

    Tuning withEndpointDeadline(Duration deadline) {
      return new Tuning(hubEnvironment, lineObserver, replayQuiet, replayMax, deadline);
    }
  }

  public AcpDriver(AcpAgentConfig config) {
    this(config, Tuning.defaults());
  }

  AcpDriver(AcpAgentConfig config, Tuning tuning) {
    this.config = config;
    this.tuning = tuning;
    this.auth = new AuthCheck(config);
  }

  @Override
  public String id() {
    return config.id();
  }

  /** Models and modes are those the agent offered in its last session (empty until it first ran). */
  @Override
  public DriverCapabilities capabilities() {
    AgentFacts known = facts.get();
    return new DriverCapabilities(config.displayName(), known.models(), known.modes(), false, false, true, true, Set.of());
  }

  @Override
  public AuthStatus authStatus() {
    return auth.status(environment(), facts.get().version());
  }

  /** A real round trip: starts the agent, {@code initialize}, {@code session/new} in a scratch folder. */
  @Override
  public AuthStatus verify() {
    AuthStatus cheap = authStatus();
    if (!cheap.ok() && cheap.detail().contains("not installed")) {
      return cheap;
    }
    Path scratch = null;
    try {
      scratch = Files.createTempDirectory("roundhouse-acp-verify");
      try (AcpConnection agent = AcpConnection.start(config.displayName(), commandLine(), scratch, environment(), LineObserver.NONE, List.of())) {
        initialize(agent);
        JsonNode session = agent.request(AcpSchema.METHOD_SESSION_NEW, new SessionParams.NewSession(scratch.toString(), List.of()), config.startupTimeout());
        facts.updateAndGet(known -> known.withSession(session));
        AgentFacts known = facts.get();
        return AuthStatus.ok(config.displayName() + (known.version() != null ? " " + known.version() : "") + " answered over ACP"
            + (known.models().isEmpty() ? "" : "; models: " + String.join(", ", known.models()))
            + (known.modes().isEmpty() ? "" : "; modes: " + String.join(", ", known.modes())));
      }
    } catch (AcpAgentException e) {
      return AuthStatus.problem(e.getMessage());
    } catch (IOException e) {
      return AuthStatus.problem("cannot make a scratch folder to verify " + config.displayName() + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return AuthStatus.problem("the check of " + config.displayName() + " was interrupted");
    } finally {
      deleteQuietly(scratch);
    }
  }

  @Override
  public List<Path> settingsFiles(Path workingDirectory) {
    String home = environment().get("HOME");
    List<Path> files = new ArrayList<>();
    for (String file : config.settingsFiles()) {
      Path path = AuthCheck.expand(file, home, workingDirectory);
      if (path != null) {
        files.add(path);
      }
    }
    return files;
  }

  @Override
  public void run(TurnRequest request, TurnContext context) throws Exception {
    Optional<AgentEndpoint> endpoint = context.agentEndpoint();
    AcpConnection agent = AcpConnection.start(config.displayName(), commandLine(), request.workingDirectory(), environment(request.environment()),
        tuning.lineObserver(), secrets(endpoint, request), context.processes());
    AtomicReference<String> prompting = new AtomicReference<>();
    context.onStop(() -> {
      String sessionId = prompting.get();
      if (sessionId != null) {
        agent.notify(AcpSchema.METHOD_SESSION_CANCEL, new AcpSchema.CancelNotification(sessionId));
      }
    });
    try {
      JsonNode init = initialize(agent);
      OpenSession session = open(agent, init, request, endpoint);
      context.emit(new TurnEvent.SessionStarted(session.id(), session.model()));
      String text = session.loaded() ? request.message() : Prompts.first(request);
      while (true) {
        prompt(agent, session.id(), text, context, request.turnId(), prompting);
        Optional<String> next = context.awaitNextMessage();
        if (next.isEmpty()) {
          return;
        }
        text = next.get();
      }
    } finally {
      agent.close(Duration.ofSeconds(2));
    }
  }

  private record OpenSession(String id, String model, boolean loaded) {}

  /** The hub's token and the values of the face's servers' env and headers: never in a report. */
  private static List<String> secrets(Optional<AgentEndpoint> endpoint, TurnRequest request) {
    List<String> secrets = new ArrayList<>(SessionParams.secrets(request.mcpServers()));
    endpoint.ifPresent(hub -> secrets.add(hub.bearerToken()));
    return secrets;
  }

  private JsonNode initialize(AcpConnection agent) throws InterruptedException {
    AcpSchema.InitializeRequest hello = new AcpSchema.InitializeRequest(
        PROTOCOL_VERSION,
        new AcpSchema.ClientCapabilities(new AcpSchema.FileSystemCapability(false, false), false),
        new AcpSchema.Implementation("roundhouse", version(), "Roundhouse"),
        null);
    JsonNode answer = agent.request(AcpSchema.METHOD_INITIALIZE, hello, config.startupTimeout());
    int spoken = answer.path("protocolVersion").asInt(-1);
    if (spoken != PROTOCOL_VERSION) {
      throw new AcpAgentException(config.displayName() + " speaks ACP protocol version " + spoken + "; Roundhouse speaks version " + PROTOCOL_VERSION);
    }
    facts.updateAndGet(known -> known.withVersion(answer));
    return answer;
  }

  private OpenSession open(AcpConnection agent, JsonNode init, TurnRequest request, Optional<AgentEndpoint> endpoint) throws InterruptedException {
    JsonNode capabilities = init.path("agentCapabilities");
    boolean takesHttp = capabilities.path("mcpCapabilities").path("http").asBoolean(false);
    if (endpoint.isPresent() && !takesHttp) {
      LOG.info("{} takes no HTTP MCP servers: its turns run without the hub's tools", config.displayName());
    }
    if (!takesHttp && request.mcpServers().stream().anyMatch(spec -> spec.transport().equals("http"))) {
      LOG.info("{} takes no HTTP MCP servers: the turn's http servers are left out", config.displayName());
    }
    List<SessionParams.McpServer> servers = SessionParams.mcpServers(endpoint, request.mcpServers(), takesHttp);
    String cwd = request.workingDirectory().toAbsolutePath().toString();
    String resume = request.resumeSessionId();
    if (resume != null && capabilities.path("loadSession").asBoolean(false)) {
      agent.onUpdate(replayed -> {}); // the agent replays the conversation, which the transcript already holds
      try {
        JsonNode loaded = agent.request(AcpSchema.METHOD_SESSION_LOAD, new SessionParams.LoadSession(resume, cwd, servers), config.startupTimeout());
        agent.awaitQuiet(tuning.replayQuiet(), tuning.replayMax());
        return configure(agent, resume, loaded, request, true);
      } catch (AcpAgentException e) {
        if (!agent.isAlive()) {
          throw e;
        }
        LOG.info("{} could not load session {} ({}); starting a new one with the task's summaries", config.displayName(), resume, e.getMessage());
      }
    }
    JsonNode created = agent.request(AcpSchema.METHOD_SESSION_NEW, new SessionParams.NewSession(cwd, servers), config.startupTimeout());
    String id = created.path("sessionId").asText(null);
    if (id == null) {
      throw new AcpAgentException(config.displayName() + " answered session/new without a sessionId");
    }
    return configure(agent, id, created, request, false);
  }

  /** Learns the session's models and modes, and switches to the turn's model and mode when it names them. */
  private OpenSession configure(AcpConnection agent, String sessionId, JsonNode answer, TurnRequest request, boolean loaded)
      throws InterruptedException {
    facts.updateAndGet(known -> known.withSession(answer));
    String model = answer.path("models").path("currentModelId").asText(null);
    if (request.model() != null && !request.model().equals(model)) {
      if (!answer.has("models")) {
        throw new AcpAgentException(config.displayName() + " does not offer models over ACP, so it cannot switch to '" + request.model()
            + "': name the model in the agent's command instead (such as -m for Gemini CLI)");
      }
      agent.request("session/set_model", Map.of("sessionId", sessionId, "modelId", request.model()), config.startupTimeout());
      model = request.model();
    }
    String mode = request.permissionMode();
    if (mode != null && !mode.equals(answer.path("modes").path("currentModeId").asText(null))) {
      List<String> modes = AgentFacts.UNKNOWN.withSession(answer).modes();
      if (!modes.contains(mode)) {
        throw new AcpAgentException(config.displayName() + " has no permission mode '" + mode + "'"
            + (modes.isEmpty() ? " (it offers none)" : " (it has " + String.join(", ", modes) + ")"));
      }
      agent.request(AcpSchema.METHOD_SESSION_SET_MODE, new AcpSchema.SetSessionModeRequest(sessionId, mode), config.startupTimeout());
    }
    return new OpenSession(sessionId, model, loaded);
  }

  private void prompt(AcpConnection agent, String sessionId, String text, TurnContext context, long turnId, AtomicReference<String> prompting)
      throws InterruptedException {
    PromptTurn turn = new PromptTurn(context, sessionId);
    agent.onUpdate(turn::onUpdate);
    agent.onPermission(turn::onPermission);
    prompting.set(sessionId);
    CompletableFuture<JsonNode> answer = agent.requestAsync(
        AcpSchema.METHOD_SESSION_PROMPT, new AcpSchema.PromptRequest(sessionId, List.of(new AcpSchema.TextContent(text))));
    try {
      JsonNode result = awaitAnswer(agent, turn, answer, context);
      if (context.isStopped()) {
        throw new TurnStoppedException(turnId);
      }
      turn.finish(result);
    } catch (InterruptedException e) {
      // A stop (session/cancel is on its way) or the hub shutting down: give the prompt its grace to end.
      agent.notify(AcpSchema.METHOD_SESSION_CANCEL, new AcpSchema.CancelNotification(sessionId));
      if (!endsWithin(answer, config.cancelGrace())) {
        LOG.info("{} did not end its prompt within {} s of session/cancel; killing it", config.displayName(), config.cancelGrace().toSeconds());
        agent.kill();
      }
      throw e;
    } catch (ExecutionException e) {
      if (context.isStopped()) {
        throw new TurnStoppedException(turnId);
      }
      throw agent.failure(AcpSchema.METHOD_SESSION_PROMPT, e.getCause());
    } finally {
      prompting.set(null);
      agent.onUpdate(ignored -> {});
      agent.onPermission(ignored -> AcpConnection.CANCELLED);
    }
  }

  /**
   * Waits for the prompt's answer, ending the prompt when the agent has said nothing for the endpoint
   * deadline while it waited on no one (no permission request open, no tool running): an agent retrying a
   * failing model endpoint says nothing on ACP (Gemini CLI retries a 5xx for about 4 minutes).
   *
   * <p>The silence is measured on the hub's {@code clock} (the turn's), so a test advances it rather than
   * waiting minutes: every quarter second (of real time) the wait looks whether the agent wrote a line or a
   * permission request was answered since the last look, or the agent waits on others; if so, the silence
   * starts again at the clock's now. A quarter, half and three quarters into a silence it says so in the
   * transcript ({@link EndpointSilence}).
   */
  private JsonNode awaitAnswer(AcpConnection agent, PromptTurn turn, CompletableFuture<JsonNode> answer, TurnContext context)
      throws InterruptedException, ExecutionException {
    Clock clock = context.clock();
    Duration limit = tuning.endpointDeadline();
    EndpointSilence silence = new EndpointSilence(config.displayName(), limit);
    long poll = Math.min(TimeUnit.MILLISECONDS.toNanos(250), limit.toNanos());
    long lastHeard = Math.max(agent.lastLineNanos(), turn.lastActivityNanos());
    Instant quietSince = clock.instant();
    while (true) {
      try {
        return answer.get(poll, TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        long heard = Math.max(agent.lastLineNanos(), turn.lastActivityNanos());
        Duration quiet = Duration.between(quietSince, clock.instant());
        if (heard != lastHeard || turn.waitingOnOthers()) {
          lastHeard = heard;
          quietSince = clock.instant();
          silence.heard();
        } else if (quiet.compareTo(limit) < 0) {
          silence.due(quiet, null).ifPresent(context::emit);
        } else {
          agent.notify(AcpSchema.METHOD_SESSION_CANCEL, new AcpSchema.CancelNotification(turn.sessionId()));
          if (!endsWithin(answer, config.cancelGrace())) {
            agent.kill();
          }
          throw agent.silent(limit);
        }
      }
    }
  }

  /** Waits, ignoring interrupts, up to {@code grace} for {@code answer}; true when it came. */
  private static boolean endsWithin(CompletableFuture<JsonNode> answer, Duration grace) {
    long deadline = System.nanoTime() + grace.toNanos();
    boolean interrupted = Thread.interrupted();
    try {
      while (true) {
        try {
          answer.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
          return true;
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          return true;
        } catch (TimeoutException e) {
          return false;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private List<String> commandLine() {
    return config.command().commandLine(List.of());
  }

  private Map<String, String> environment() {
    return environment(Map.of());
  }

  /** The agent's environment plus what the task's place adds (its {@code PORT}, say). */
  private Map<String, String> environment(Map<String, String> turnVariables) {
    return ChildEnvironment.from(tuning.hubEnvironment().get()).passPrefixes(config.passEnv()).putAll(config.command().env())
        .putAll(turnVariables).toMap();
  }

  private static String version() {
    String version = AcpDriver.class.getPackage().getImplementationVersion();
    return version != null ? version : "dev";
  }

  private static void deleteQuietly(Path folder) {
    if (folder == null) {
      return;
    }
    try (var files = Files.walk(folder)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      LOG.debug("could not delete {}: {}", folder, e.getMessage());
    }
  }
}
