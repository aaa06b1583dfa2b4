package dev.roundhouse.drivers.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.spi.AgentDriver;
import dev.roundhouse.hub.spi.AuthStatus;
import dev.roundhouse.hub.spi.DriverCapabilities;
import dev.roundhouse.hub.spi.TurnContext;
import dev.roundhouse.hub.spi.TurnRequest;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The "bring your own key" driver: any OpenAI-compatible chat completions endpoint (OpenAI, OpenRouter,
 * Ollama, LM Studio, vLLM, ...) with function calling, workspace tools confined to the project folder, and
 * the hub's operations as tools. Configured by environment variables and {@code $ROUNDHOUSE_HOME/openai.json}
 * (see {@code docs/drivers/openai.md}); the key stays in memory, and out of the database, events, logs and
 * exception messages.
 *
 * <p>Thread-safe: each turn gets its own HTTP client, chat loop and command runner; the configuration is
 * read again at every turn and check, so edits to {@code openai.json} need no restart.
 */
public final class OpenAiDriver implements AgentDriver {
  /** The driver's id, as tasks and projects name it. */
  public static final String ID = "openai";

  private static final Logger LOG = LoggerFactory.getLogger(OpenAiDriver.class);
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(15);
  private static final int MAX_COMMAND_OUTPUT_CHARS = 64 * 1024;

  /**
   * What tests change: waits, randomness, time and limits.
   *
   * @param sleeper waits between retries; null for real waits that end early when the turn stops
   * @param clock for {@code Retry-After} dates in the connection test (turns use the context's clock)
   * @param requestTimeout how long to wait for an endpoint's response headers
   * @param verifyTimeout the same, for the connection test
   * @param warnings where configuration warnings go (once each)
   */
  record Tuning(
      Sleeper sleeper,
      RandomGenerator random,
      Clock clock,
      RetryPolicy retry,
      int maxSteps,
      Duration commandTimeout,
      Duration requestTimeout,
      Duration verifyTimeout,
      Consumer<String> warnings) {

    static Tuning defaults() {
      return new Tuning(
          null,
          RandomGenerator.getDefault(),
          Clock.systemUTC(),
          RetryPolicy.DEFAULT,
          50,
          Duration.ofMinutes(10),
          Duration.ofMinutes(5),
          Duration.ofSeconds(20),
          LOG::warn);
    }
  }

  private final Map<String, String> environment;
  private final Path home;
  private final Tuning tuning;
  private final Set<String> warned = ConcurrentHashMap.newKeySet();
  private volatile List<String> offeredModels = List.of();

  /** Reads the process environment; the home is {@code ROUNDHOUSE_HOME}, else {@code ~/.roundhouse}. */
  public OpenAiDriver() {
    this(System.getenv(), defaultHome(System.getenv()));
  }

  /**
   * @param environment the variables to read settings and {@code api_key_env} keys from
   * @param home the Roundhouse home, where {@code openai.json} may be
   */
  public OpenAiDriver(Map<String, String> environment, Path home) {
    this(environment, home, Tuning.defaults());
  }

  OpenAiDriver(Map<String, String> environment, Path home, Tuning tuning) {
    this.environment = Map.copyOf(environment);
    this.home = home;
    this.tuning = tuning;
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public DriverCapabilities capabilities() {
    Set<String> models = new LinkedHashSet<>(config().models());
    models.addAll(offeredModels);
    // Resume: a later turn continues the task's conversation, rebuilt from the hub's transcript (TurnContext.history).
    return new DriverCapabilities(
        "OpenAI-compatible", new ArrayList<>(models), List.of(), false, false, true, false, WorkspaceTools.READ_ONLY);
  }

  @Override
  public void run(TurnRequest request, TurnContext context) throws Exception {
    OpenAiConfig config = config();
    OpenAiSettings settings = config.settingsFor(request.projectName());
    if (settings.problem().isPresent()) {
      throw failed("the OpenAI-compatible driver is not configured: " + settings.problem().get());
    }
    String model = request.model() != null && !request.model().isBlank() ? request.model() : settings.model().orElse(null);
    if (model == null) {
      throw failed("no model is configured for project '" + request.projectName() + "': set " + OpenAiConfig.ENV_MODEL
          + ", or \"model\" in " + config.file());
    }
    WorkspacePaths paths;
    try {
      paths = new WorkspacePaths(request.workingDirectory());
    } catch (UncheckedIOException e) {
      throw failed(e.getMessage());
    }
    HttpClient http = httpClient(settings, CONNECT_TIMEOUT);
    CountDownLatch stopped = new CountDownLatch(1);
    Sleeper sleeper = tuning.sleeper() != null ? tuning.sleeper() : wait -> stopped.await(wait.toNanos(), TimeUnit.NANOSECONDS);
    ChatClient client = new ChatClient(http, settings, tuning.retry(), sleeper, tuning.random(), context.clock(), tuning.requestTimeout());
    CommandRunner commands = new CommandRunner(request.environment(), config.keyVariables(), settings.apiKey().orElse(null), MAX_COMMAND_OUTPUT_CHARS, context.processes());
    context.onStop(() -> {
      stopped.countDown();
      client.abort();
      commands.stopAll();
    });
    McpServerTools servers = request.mcpServers().isEmpty() ? McpServerTools.none()
        : McpServerTools.connect(request.mcpServers(), request.workingDirectory(), request.environment(),
            config.keyVariables(), settings.apiKey().orElse(null), context.processes(), context::requestPermission);
    try (servers) {
      Toolbox tools = request.codingTask()
          ? new Toolbox(new WorkspaceTools(paths, commands, context::requestPermission, tuning.commandTimeout()), context, servers)
          : Toolbox.hubOnly(context, servers); // not coding work: no files, no commands
      new ChatLoop(request, context, settings, model, client, tools, tuning.maxSteps()).run();
    } finally {
      commands.stopAll();
      http.shutdownNow();
    }
  }

  /**
   * Cheap: an endpoint and a model are configured, and a key is there unless the endpoint is local. Reads
   * only the configuration (the defaults, not a project's).
   */
  @Override
  public AuthStatus authStatus() {
    OpenAiConfig config = config();
    OpenAiSettings settings = config.settingsFor(null);
    if (settings.problem().isPresent()) {
      return AuthStatus.problem(settings.problem().get());
    }
    URI url = settings.baseUrl().orElseThrow();
    if (settings.model().isEmpty()) {
      return AuthStatus.problem("no model is configured for " + url + ": set " + OpenAiConfig.ENV_MODEL + ", or \"model\" in " + config.file());
    }
    if (settings.apiKey().isEmpty() && !settings.isLocal()) {
      return AuthStatus.problem("no API key for " + settings.endpointName() + " (" + url + "): set " + OpenAiConfig.ENV_API_KEY
          + ", or api_key_env in " + config.file());
    }
    String key = settings.keySource().map(source -> "key from " + source).orElse("no key (none needed for a local endpoint)");
    return AuthStatus.ok(withWarnings(config, settings.endpointName() + " at " + url + ", model '" + settings.model().get() + "', " + key));
  }

  /**
   * A real round trip with the default settings: {@code GET /models}, and the configured model among them;
   * when the endpoint has no model list, a one-token chat completion instead.
   */
  @Override
  public AuthStatus verify() {
    AuthStatus cheap = authStatus();
    if (!cheap.ok()) {
      return cheap;
    }
    OpenAiConfig config = config();
    OpenAiSettings settings = config.settingsFor(null);
    String model = settings.model().orElseThrow();
    String name = settings.endpointName();
    URI url = settings.baseUrl().orElseThrow();
    HttpClient http = httpClient(settings, tuning.verifyTimeout());
    try {
      ChatClient client = new ChatClient(http, settings, RetryPolicy.NONE, wait -> {}, tuning.random(), tuning.clock(), tuning.verifyTimeout());
      try {
        JsonNode list = client.getJson("/models");
        List<String> ids = new ArrayList<>();
        list.path("data").forEach(entry -> ids.add(entry.path("id").asText()));
        if (!ids.isEmpty()) {
          offeredModels = List.copyOf(ids);
          if (!ids.contains(model)) {
            return AuthStatus.problem("model '" + model + "' is not offered by " + name + " (it offers " + ids.size() + " models, such as "
                + String.join(", ", ids.subList(0, Math.min(5, ids.size()))) + ")");
          }
          return AuthStatus.ok(withWarnings(config, name + " answers at " + url + " and offers model '" + model + "'"));
        }
      } catch (EndpointException e) {
        if (e.status() != 404 && e.status() != 405) {
          return AuthStatus.problem(explain(e, settings));
        }
      }
      ObjectNode ping = Json.mapper().createObjectNode();
      ping.put("model", model);
      ping.putArray("messages").addObject().put("role", "user").put("content", "Say OK.");
      ping.put("max_tokens", 1);
      try {
        client.complete(ping, text -> {});
        return AuthStatus.ok(withWarnings(config, name + " answers at " + url + " (model '" + model + "' answered a one-token test)"));
      } catch (EndpointException e) {
        if (e.status() == 404 && !url.getPath().endsWith("/v1")) {
          return AuthStatus.problem(explain(e, settings) + "; OpenAI-compatible servers usually answer under /v1, such as " + url + "/v1");
        }
        return AuthStatus.problem(explain(e, settings));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return AuthStatus.problem("the connection test of " + url + " was interrupted");
    } finally {
      http.shutdownNow();
    }
  }

  private static String explain(EndpointException e, OpenAiSettings settings) {
    if ((e.status() == 401 || e.status() == 403) && settings.keySource().isPresent()) {
      return e.getMessage() + " (the key comes from " + settings.keySource().get() + ")";
    }
    if (e.status() == 401 && settings.apiKey().isEmpty()) {
      return e.getMessage() + " (no key is configured: set " + OpenAiConfig.ENV_API_KEY + ", or api_key_env in openai.json)";
    }
    return e.getMessage();
  }

  private String withWarnings(OpenAiConfig config, String detail) {
    return config.warnings().isEmpty() ? detail : detail + "; warning: " + String.join("; ", config.warnings());
  }

  private OpenAiConfig config() {
    OpenAiConfig config = OpenAiConfig.load(environment, home);
    for (String warning : config.warnings()) {
      if (warned.add(warning)) {
        tuning.warnings().accept(warning);
      }
    }
    return config;
  }

  private static HttpClient httpClient(OpenAiSettings settings, Duration connectTimeout) {
    boolean plain = settings.baseUrl().map(url -> url.getScheme().toLowerCase(Locale.ROOT).equals("http")).orElse(true);
    return HttpClient.newBuilder()
        .connectTimeout(connectTimeout)
        // A redirect is reported, never followed: following could carry the key to another host.
        .followRedirects(HttpClient.Redirect.NEVER)
        // Plain-HTTP local servers choke on an h2c upgrade attempt.
        .version(plain ? HttpClient.Version.HTTP_1_1 : HttpClient.Version.HTTP_2)
        .build();
  }

  /** The runner records the message as the turn's {@code turn.error}. */
  private static RoundhouseException failed(String message) {
    return new RoundhouseException("openai_not_configured", message);
  }

  private static Path defaultHome(Map<String, String> environment) {
    String home = environment.get("ROUNDHOUSE_HOME");
    return home != null && !home.isBlank() ? Path.of(home) : Path.of(System.getProperty("user.home"), ".roundhouse");
  }
}
