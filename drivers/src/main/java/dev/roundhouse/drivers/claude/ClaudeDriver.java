package dev.roundhouse.drivers.claude;

import dev.roundhouse.drivers.process.ChildEnvironment;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.spi.AgentDriver;
import dev.roundhouse.hub.spi.AgentEndpoint;
import dev.roundhouse.hub.spi.AuthStatus;
import dev.roundhouse.hub.spi.DriverCapabilities;
import dev.roundhouse.hub.spi.TurnContext;
import dev.roundhouse.hub.spi.TurnRequest;
import dev.roundhouse.hub.spi.TurnStoppedException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives Claude Code ({@code claude}) in its bidirectional {@code stream-json} mode: one long-lived CLI
 * process per turn, which lingers after each answer and takes the task's next message on the same stdin.
 * Every tool use the CLI would ask about comes to the hub's permission gate ({@code --permission-prompt-tool
 * stdio}); stop interrupts the CLI first and kills its process group only when it does not end the answer
 * in time; a later turn resumes the stored session, or starts afresh with the task's summaries when that
 * session is gone. See {@code docs/drivers/claude.md}.
 *
 * <p>Thread-safe: each turn has its own process, folder and {@link ClaudeSession}; what the driver learns
 * from the CLI (its help text, the models and modes sessions report) is kept in concurrent fields.
 */
public final class ClaudeDriver implements AgentDriver {
  /** The driver's id, as tasks and projects name it. */
  public static final String ID = "claude";

  private static final Logger LOG = LoggerFactory.getLogger(ClaudeDriver.class);
  /** Variables of the hub's environment that Claude Code reads (its key, base URL, model and feature switches). */
  private static final List<String> PASSED_PREFIXES = List.of("ANTHROPIC_", "CLAUDE_", "DISABLE_");
  /** Tools that only read, or only keep the session's own to-do list: the gate allows them without asking (the CLI rarely asks). */
  private static final Set<String> READ_ONLY_TOOLS = Set.of("Read", "Glob", "Grep", "LS", "TodoWrite", "TaskCreate", "TaskUpdate", "TaskGet", "TaskList");
  private static final long HELP_RETRY_NANOS = 60_000_000_000L;

  private final ClaudeSettings settings;
  private final Map<String, String> environment;
  private final ClaudeSession.EmitObserver observer;
  private final ClaudeProbe probe;
  private final AtomicReference<Help> help = new AtomicReference<>();
  private final Set<String> reportedModels = ConcurrentHashMap.newKeySet();
  private final Set<String> reportedModes = ConcurrentHashMap.newKeySet();

  private record Help(CliHelp help, long readAt) {}

  /** Runs {@code settings.command()} with the hub's environment, filtered (see {@link ChildEnvironment}). */
  public ClaudeDriver(ClaudeSettings settings) {
    this(settings, System.getenv(), ClaudeSession.EmitObserver.NONE);
  }

  /**
   * @param hubEnvironment the variables the CLI's environment is filtered from
   * @param observer sees every emitted event with when its line was read (benchmarks)
   */
  ClaudeDriver(ClaudeSettings settings, Map<String, String> hubEnvironment, ClaudeSession.EmitObserver observer) {
    this.settings = settings;
    this.environment = ChildEnvironment.from(hubEnvironment).passPrefixes(PASSED_PREFIXES).putAll(settings.command().env()).toMap();
    this.observer = observer;
    this.probe = new ClaudeProbe(settings.command(), environment, settings.probeTimeout());
  }

  @Override
  public String id() {
    return ID;
  }

  /**
   * Models: the aliases {@code claude --help} names, and every model a session reported. Permission modes:
   * the choices {@code --help} lists for {@code --permission-mode}, and every mode a session reported. The
   * help is read once (again after a minute when the CLI could not be asked).
   */
  @Override
  public DriverCapabilities capabilities() {
    CliHelp cli = cliHelp();
    Set<String> models = new LinkedHashSet<>(cli.modelAliases());
    models.addAll(reportedModels);
    Set<String> modes = new LinkedHashSet<>(cli.permissionModes());
    modes.addAll(reportedModes);
    return new DriverCapabilities("Claude Code", new ArrayList<>(models), new ArrayList<>(modes), true, true, true, true, READ_ONLY_TOOLS);
  }

  @Override
  public void run(TurnRequest request, TurnContext context) throws Exception {
    try (TurnFolder folder = TurnFolder.create()) {
      Optional<Path> systemPrompt = folder.writeSystemPrompt(ClaudeCommandLine.systemPrompt(request));
      Optional<AgentEndpoint> endpoint = context.agentEndpoint();
      Optional<Path> mcpConfig = folder.writeMcpConfig(request.mcpServers(), endpoint.orElse(null));
      AtomicReference<ClaudeSession> current = new AtomicReference<>();
      context.onStop(() -> {
        ClaudeSession session = current.get();
        if (session != null) {
          session.stop();
        }
      });
      ClaudeSession session = open(request, context, request.resumeSessionId(), systemPrompt, mcpConfig, current);
      try {
        StreamMapper.Ending ending = session.answer(request.message());
        if (ending.vanished()) {
          LOG.info("Claude Code session {} of task {} is gone ({}); starting a fresh session with the task's summaries",
              request.resumeSessionId(), request.taskId(), ending.problem());
          session.end();
          session = open(request, context, null, systemPrompt, mcpConfig, current);
          ending = session.answer(request.message());
        }
        while (true) {
          if (ending.failed()) {
            throw new RoundhouseException("agent_error", "Claude Code: " + ending.problem());
          }
          Optional<String> next = context.awaitNextMessage();
          if (next.isEmpty()) {
            break;
          }
          ending = session.answer(next.get());
        }
        OptionalInt exit = session.end();
        if (exit.isPresent() && exit.getAsInt() != 0 && !context.isStopped()) {
          LOG.warn("claude exited with code {} after its session of task {} ended", exit.getAsInt(), request.taskId());
        }
      } finally {
        learn(session);
        session.end();
      }
      if (context.isStopped()) {
        throw new TurnStoppedException(request.turnId());
      }
    }
  }

  /** The CLI's environment plus what the task's place adds (its {@code PORT}, say). */
  private Map<String, String> withTurnVariables(TurnRequest request) {
    if (request.environment().isEmpty()) {
      return environment;
    }
    Map<String, String> merged = new java.util.HashMap<>(environment);
    merged.putAll(request.environment());
    return merged;
  }

  private ClaudeSession open(
      TurnRequest request, TurnContext context, String resume, Optional<Path> systemPrompt, Optional<Path> mcpConfig,
      AtomicReference<ClaudeSession> current) {
    List<String> commandLine = ClaudeCommandLine.build(settings.command(), request, resume, systemPrompt, mcpConfig);
    ClaudeSession session = ClaudeSession.start(
        commandLine, request.workingDirectory(), withTurnVariables(request), context, request.turnId(), settings.stopGrace(), observer);
    current.set(session);
    if (context.isStopped()) {
      session.stop(); // stopped while it started: the stop action saw the previous session, or none
    }
    return session;
  }

  private void learn(ClaudeSession session) {
    StreamMapper mapper = session.mapper();
    if (mapper.model() != null) {
      reportedModels.add(mapper.model());
    }
    if (mapper.permissionMode() != null) {
      reportedModes.add(mapper.permissionMode());
    }
  }

  /**
   * Runs {@code claude --version} and {@code claude auth status}: installed? which version? a login or key?
   * This is also {@link #verify()} (the SPI's default): a round trip to the model would send a full Claude
   * Code system prompt on the user's account.
   */
  @Override
  public AuthStatus authStatus() {
    return probe.authStatus();
  }

  /** The project's Claude Code settings, which can allow tools outside the hub's gate. */
  @Override
  public List<Path> settingsFiles(Path workingDirectory) {
    return List.of(workingDirectory.resolve(".claude/settings.json"), workingDirectory.resolve(".claude/settings.local.json"));
  }

  private CliHelp cliHelp() {
    Help known = help.get();
    long now = System.nanoTime();
    if (known != null && (!known.help().permissionModes().isEmpty() || now - known.readAt() < HELP_RETRY_NANOS)) {
      return known.help();
    }
    Help read = new Help(probe.help(), now);
    help.set(read);
    return read.help();
  }
}
