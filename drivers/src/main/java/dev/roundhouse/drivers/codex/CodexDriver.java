package dev.roundhouse.drivers.codex;

import dev.roundhouse.drivers.process.ChildEnvironment;
import dev.roundhouse.hub.spi.AgentDriver;
import dev.roundhouse.hub.spi.AuthStatus;
import dev.roundhouse.hub.spi.DriverCapabilities;
import dev.roundhouse.hub.spi.TurnContext;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.spi.TurnRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Drives OpenAI's Codex CLI through {@code codex app-server}: threads and turns, streamed agent messages
 * and command output, approvals for commands, file changes and MCP tool calls as the hub's permission
 * decisions, {@code turn/interrupt} on stop, resume by thread id, token usage with an estimated cost, a
 * deadline on a dead model endpoint, and the hub's MCP endpoint configured for each thread. One app-server
 * process per session, lingering between messages. See {@code docs/drivers/codex.md}.
 *
 * <p>Thread-safe: each {@link #run} has its own process and session; what Codex said about itself (version,
 * models, approval policies) is cached in an atomic reference.
 */
public final class CodexDriver implements AgentDriver {
  /** The driver's id, as tasks and projects name it. */
  public static final String ID = "codex";
  static final String CLIENT_VERSION = "1.0";
  private static final Duration FACTS_WAIT = Duration.ofSeconds(30);

  /** Hooks for tests and benchmarks; the defaults do nothing. Implementations must be thread-safe. */
  interface Observer {
    Observer NONE = new Observer() {};

    default void started(AppServer server) {}

    default void ended(AppServer server) {}

    /** {@code event} was emitted {@code nanos} after its line was read from Codex's stdout. */
    default void emitted(TurnEvent event, long nanos) {}
  }

  /**
   * What tests change.
   *
   * @param environment the environment children start from (before the codex command's own variables)
   * @param prices what models cost, for the estimate
   */
  record Tuning(Supplier<ChildEnvironment> environment, PriceTable prices, Observer observer) {
    static Tuning defaults() {
      return new Tuning(ChildEnvironment::fromHub, PriceTable.DEFAULT, Observer.NONE);
    }
  }

  private final CodexSettings settings;
  private final Tuning tuning;
  private final AtomicReference<CompletableFuture<CodexFacts>> facts = new AtomicReference<>();
  private volatile List<String> sessionModels = List.of();

  public CodexDriver(CodexSettings settings) {
    this(settings, Tuning.defaults());
  }

  CodexDriver(CodexSettings settings, Tuning tuning) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.tuning = tuning;
  }

  @Override
  public String id() {
    return ID;
  }

  /**
   * Models and approval policies as Codex reports them (asked once, on first use, about a second); cost
   * is reported as an estimate; resume and linger are supported. Codex decides itself which commands are
   * safe to run without asking, so no tool is listed as read-only.
   */
  @Override
  public DriverCapabilities capabilities() {
    CodexFacts known = cachedFacts();
    List<String> models = known.models().isEmpty() ? sessionModels : known.models();
    return new DriverCapabilities("Codex", models, known.approvalPolicies(), false, true, true, true, Set.of());
  }

  @Override
  public void run(TurnRequest request, TurnContext context) throws Exception {
    new CodexSession(settings, tuning, request, context, models -> sessionModels = models).run();
  }

  /**
   * Asks Codex now (about a second): installed, which version, logged in or keyed. This is also {@link
   * #verify()} (the SPI's default): it already runs a real app-server session, and a round trip to the model
   * would spend a turn, with Codex's whole system prompt, on the user's account.
   */
  @Override
  public AuthStatus authStatus() {
    CodexFacts fresh = CodexProbe.probe(settings, environment());
    facts.set(CompletableFuture.completedFuture(fresh));
    return fresh.status(environment());
  }

  /**
   * Codex's own rules files (execpolicy {@code *.rules}, which can let commands run without asking) and the
   * project's {@code .codex/config.toml}. The user's {@code config.toml} is left out: Codex rewrites it itself
   * (it records each project folder it trusts), which would trip the drift check on every new project; the
   * settings in it that matter for permissions (approval policy, sandbox) are overridden per thread.
   */
  @Override
  public List<Path> settingsFiles(Path workingDirectory) {
    Path home = codexHome();
    return List.of(home.resolve("rules").resolve("default.rules"), workingDirectory.resolve(".codex").resolve("config.toml"));
  }

  /** The folder Codex keeps its configuration, logins and threads in. */
  Path codexHome() {
    Map<String, String> environment = environment();
    String home = environment.get("CODEX_HOME");
    if (home != null && !home.isBlank()) {
      return Path.of(home);
    }
    return Path.of(environment.getOrDefault("HOME", System.getProperty("user.home")), ".codex");
  }

  private Map<String, String> environment() {
    return tuning.environment().get().passPrefixes(List.of("CODEX_", "OPENAI_")).putAll(settings.command().env()).toMap();
  }

  private CodexFacts cachedFacts() {
    CompletableFuture<CodexFacts> known = facts.get();
    if (known == null) {
      CompletableFuture<CodexFacts> asking = new CompletableFuture<>();
      if (facts.compareAndSet(null, asking)) {
        Thread.ofVirtual().name("codex-probe").start(() -> asking.complete(CodexProbe.probe(settings, environment())));
      }
      known = facts.get();
    }
    try {
      return known.get(FACTS_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return CodexFacts.unavailable("interrupted while asking codex about itself");
    } catch (ExecutionException | TimeoutException e) {
      return CodexFacts.unavailable("codex did not say what it is within " + FACTS_WAIT.toSeconds() + " s");
    }
  }
}
