package dev.roundhouse.lspbridge.acp;

import com.agentclientprotocol.sdk.spec.AcpSchema;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.api.BoardApi;
import dev.roundhouse.hub.api.TurnApi;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.model.DriverChoice;
import dev.roundhouse.hub.model.McpServerSpec;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.model.TaskStatus;
import dev.roundhouse.hubclient.HubAddress;
import dev.roundhouse.hubclient.HubUnavailableException;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The ACP face ({@code roundhouse acp}): an Agent Client Protocol agent over a pair of streams
 * (newline-delimited JSON-RPC on stdin and stdout), a codec over the running hub's HTTP API. An ACP session
 * is a Roundhouse task ({@code task-<id>}); a prompt is a message to its turn; every decision of the task is
 * a {@code session/request_permission}. See {@code docs/acp.md}.
 *
 * <p>Thread-safety: {@link #serve} blocks its caller until the input ends. Each request and notification
 * runs on a virtual thread of its own; the session table is concurrent and holds only what the client told
 * this connection (the task behind each session id and its running prompt): the hub holds everything else.
 */
public final class AcpAgent {
  /** The ACP protocol version this agent speaks. */
  static final int PROTOCOL_VERSION = 1;
  /** The title of a task this face files for a new session, until its first prompt names it. */
  private static final String NEW_SESSION_TITLE = "Editor session";

  private final RemoteHub hub;
  private final AcpConnection client;
  private final ExecutorService executor;
  private final Map<String, AcpPrompt> prompts = new ConcurrentHashMap<>();
  private final Map<String, AcpSessionConfig> configs = new ConcurrentHashMap<>();
  private final AcpDecisionOffers offers;
  private volatile boolean inputEnded;

  private AcpAgent(RemoteHub hub, AcpConnection client, ExecutorService executor, Supplier<HubAddress> locator) {
    this.hub = hub;
    this.client = client;
    this.executor = executor;
    this.offers = new AcpDecisionOffers(hub, client, executor, locator, Duration.ofSeconds(1));
  }

  /**
   * Serves one ACP client until it closes {@code in}.
   *
   * @param locator finds the hub (again after it restarts); throws {@link HubUnavailableException} when none
   *     runs
   * @return the process exit status: 0
   */
  public static int serve(InputStream in, OutputStream out, Supplier<HubAddress> locator) {
    ExecutorService executor = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("roundhouse-acp-", 0).factory());
    try (RemoteHub hub = RemoteHub.editorFace(locator)) {
      AcpConnection connection = new AcpConnection(in, out, executor);
      AcpAgent agent = new AcpAgent(hub, connection, executor, locator);
      try {
        connection.run(agent.handler()); // returns once the requests read before the end of the input are answered
      } finally {
        agent.offers.close();
      }
      return 0;
    } finally {
      executor.shutdownNow();
    }
  }

  private AcpConnection.Handler handler() {
    return new AcpConnection.Handler() {
      @Override
      public Object request(String method, JsonNode params) {
        if (!params.isObject()) {
          throw AcpError.invalidParams(method + ": params must be a JSON object");
        }
        return switch (method) {
          case "initialize" -> initialize(params);
          case "authenticate" -> new AcpSchema.AuthenticateResponse();
          case "session/new" -> newSession(params);
          case "session/load" -> loadSession(params);
          case "session/list" -> listSessions(params);
          case "session/prompt" -> prompt(params);
          case "session/set_mode" -> setMode(params);
          case "session/set_config_option" -> setConfigOption(params);
          default -> throw new AcpError(AcpError.METHOD_NOT_FOUND, "Method not found: " + method + " (roundhouse acp offers initialize, authenticate, session/new, session/load, session/list, session/prompt, session/set_mode, session/set_config_option and session/cancel)");
        };
      }

      @Override
      public void answered(String method, JsonNode params, JsonNode result) {
        // Now that the client knows the session, its decisions (pending ones too) are offered.
        String sessionId = switch (method) {
          case "session/new" -> result.path("sessionId").asText("");
          case "session/load" -> params.path("sessionId").asText("");
          default -> "";
        };
        if (!sessionId.isEmpty()) {
          try {
            offers.watch(taskOf(Json.mapper().createObjectNode().put("sessionId", sessionId), method), sessionId);
          } catch (RoundhouseException e) {
            // the hub is away: the event follower offers them once it reconnects
          }
        }
      }

      @Override
      public void inputEnded() {
        // The client can no longer cancel or answer a permission: running prompts stop following their
        // turns (which go on in the hub) and answer "cancelled".
        inputEnded = true;
        prompts.values().forEach(AcpPrompt::abandon);
      }

      @Override
      public void notification(String method, JsonNode params) {
        if (method.equals("session/cancel")) {
          AcpPrompt running = prompts.get(params.path("sessionId").asText(""));
          if (running != null) {
            running.cancel();
          }
        }
      }
    };
  }

  private AcpSchema.InitializeResponse initialize(JsonNode params) {
    AcpSchema.AgentCapabilities capabilities = new AcpSchema.AgentCapabilities(
        true,
        new AcpSchema.SessionCapabilities(Map.of(), null, null),
        new AcpSchema.McpCapabilities(true, false), // stdio always; http too; no sse (see AcpMcpServers)
        new AcpSchema.PromptCapabilities(false, true, false),
        null);
    return new AcpSchema.InitializeResponse(
        PROTOCOL_VERSION, capabilities, List.of(), new AcpSchema.Implementation("roundhouse", Hub.version(), "Roundhouse"), null);
  }

  // ---- sessions ----

  private JsonNode newSession(JsonNode params) {
    Path cwd = cwd(params, "session/new");
    List<McpServerSpec> servers = AcpMcpServers.of(params, "session/new");
    JsonNode joined = params.path("_meta").path("roundhouse").path("task");
    Task task;
    Project project = projectFor(cwd);
    if (!joined.isMissingNode() && !joined.isNull()) {
      if (!joined.canConvertToLong() || joined.asLong() < 1) {
        throw AcpError.invalidParams("session/new: _meta.roundhouse.task must be a task id (a whole number ≥ 1), not " + joined);
      }
      task = hub.taskGet(joined.asLong());
    } else {
      task = hub.taskCreate(new BoardApi.TaskCreate(
          Long.toString(project.id()), NEW_SESSION_TITLE, null, TaskStatus.IN_PROGRESS, null, null, null, null, null, null, null, null));
    }
    long id = task.id();
    config(id).useMcpServers(servers);
    List<TurnApi.DriverInfo> drivers = hub.driverList().drivers();
    String current = currentDriver(task, project, drivers);
    Map<String, Object> meta = Map.of("roundhouse", Map.of("task", id, "project", project.name()));
    return withConfigOptions(
        new AcpSchema.NewSessionResponse(sessionId(id), modes(drivers, current), null, meta), config(id).options(drivers, current));
  }

  private JsonNode loadSession(JsonNode params) {
    long id = taskOf(params, "session/load");
    List<McpServerSpec> servers = AcpMcpServers.of(params, "session/load");
    Task task = hub.taskGet(id);
    config(id).useMcpServers(servers); // the client gives them again on each load (ACP): this list replaces any before
    Project project = params.hasNonNull("cwd") ? projectFor(cwd(params, "session/load")) : projectOf(task);
    String sessionId = sessionId(id);
    Long after = null;
    while (true) {
      TurnApi.Transcript page = hub.taskTranscript(new TurnApi.TranscriptQuery(id, null, after, 1000));
      for (Event entry : page.entries()) {
        replay(sessionId, entry);
      }
      if (!page.hasMore()) {
        break;
      }
      after = page.lastSeq();
    }
    List<TurnApi.DriverInfo> drivers = hub.driverList().drivers();
    String current = currentDriver(task, project, drivers);
    return withConfigOptions(new AcpSchema.LoadSessionResponse(modes(drivers, current), null), config(id).options(drivers, current));
  }

  /**
   * A session's answer with its {@code configOptions}: the SDK's {@code NewSessionResponse} and
   * {@code LoadSessionResponse} (ACP SDK 0.14) have no field for them.
   */
  private static JsonNode withConfigOptions(Object response, List<AcpSchema.SessionConfigSelect> options) {
    ObjectNode answer = (ObjectNode) AcpJson.tree(response);
    answer.set("configOptions", AcpJson.tree(options));
    return answer;
  }

  /** Sends one stored transcript entry as the update a live turn would have produced. */
  private void replay(String sessionId, Event entry) {
    JsonNode data = entry.data() == null ? MissingNode.getInstance() : entry.data();
    AcpSchema.SessionUpdate update =
        switch (entry.type()) {
          case "turn.user_message" -> AcpUpdates.chunk(AcpUpdates.USER_MESSAGE, data.path("text").asText(""));
          case "turn.message" -> AcpUpdates.chunk(AcpUpdates.AGENT_MESSAGE, data.path("text").asText(""));
          case "turn.thought" -> AcpUpdates.chunk(AcpUpdates.AGENT_THOUGHT, data.path("text").asText(""));
          case "turn.plan" -> AcpUpdates.plan(data);
          case "turn.tool_call" -> AcpUpdates.toolCall(data);
          case "turn.tool_result" -> AcpUpdates.toolResult(data);
          case "turn.permission_denied" -> data.hasNonNull("call_id") ? AcpUpdates.toolDenied(data) : null;
          default -> AcpUpdates.notice(entry.type(), data).orElse(null);
        };
    if (update != null) {
      client.notify("session/update", new AcpSchema.SessionNotification(sessionId, update));
    }
  }

  private AcpSchema.ListSessionsResponse listSessions(JsonNode params) {
    List<Project> projects = hub.projectList();
    String only = params.hasNonNull("cwd") ? Long.toString(projectFor(cwd(params, "session/list"), projects).id()) : null;
    List<AcpSchema.SessionInfo> sessions = new ArrayList<>();
    for (Task task : hub.taskList(new BoardApi.TaskListQuery(only, null, null, null, 200, null)).tasks()) {
      String path = "";
      for (Project project : projects) {
        if (project.id() == task.projectId()) {
          path = project.path() == null ? "" : project.path();
        }
      }
      String updated = task.updatedAt() == null ? null : task.updatedAt().toString();
      sessions.add(new AcpSchema.SessionInfo(sessionId(task.id()), path, task.title() == null ? "" : task.title(), updated, null, null));
    }
    return new AcpSchema.ListSessionsResponse(sessions);
  }

  private AcpSchema.SetSessionModeResponse setMode(JsonNode params) {
    long id = taskOf(params, "session/set_mode");
    String mode = params.path("modeId").asText("");
    if (mode.isBlank()) {
      throw AcpError.invalidParams("session/set_mode: params.modeId is required: a Roundhouse driver id");
    }
    List<TurnApi.DriverInfo> drivers = hub.driverList().drivers();
    AcpSessionConfig.requireReady("session/set_mode", mode, drivers);
    config(id).set(AcpSessionConfig.DRIVER, TextNode.valueOf(mode), drivers, currentDriver(id, drivers));
    return new AcpSchema.SetSessionModeResponse();
  }

  private AcpSchema.SetSessionConfigOptionResponse setConfigOption(JsonNode params) {
    long id = taskOf(params, "session/set_config_option");
    String configId = params.path("configId").asText("");
    if (configId.isBlank()) {
      throw AcpError.invalidParams("session/set_config_option: params.configId is required: driver, model or permission_mode");
    }
    AcpSessionConfig config = config(id);
    List<TurnApi.DriverInfo> drivers = hub.driverList().drivers();
    config.set(configId, params.path("value"), drivers, currentDriver(id, drivers));
    return new AcpSchema.SetSessionConfigOptionResponse(List.copyOf(config.options(drivers, currentDriver(id, drivers))), null);
  }

  private AcpSessionConfig config(long task) {
    return configs.computeIfAbsent(sessionId(task), s -> new AcpSessionConfig(hub, task));
  }

  private String currentDriver(long task, List<TurnApi.DriverInfo> drivers) {
    Task stored = hub.taskGet(task);
    return currentDriver(stored, projectOf(stored), drivers);
  }

  /**
   * The driver the task's next turn runs with, by the hub's rule ({@link DriverChoice}); when neither the
   * task nor its project names one, the first driver is shown (the hub will ask for one at the first turn).
   */
  private static String currentDriver(Task task, Project project, List<TurnApi.DriverInfo> drivers) {
    return DriverChoice.of(task, project).orElse(drivers.isEmpty() ? "" : drivers.getFirst().id());
  }

  private Project projectOf(Task task) {
    return hub.projectGet(Long.toString(task.projectId()));
  }

  /** The drivers as session modes: choosing one sets the task's agent. */
  private static AcpSchema.SessionModeState modes(List<TurnApi.DriverInfo> drivers, String current) {
    List<AcpSchema.SessionMode> available = new ArrayList<>();
    for (TurnApi.DriverInfo driver : drivers) {
      String name = driver.capabilities() == null || driver.capabilities().displayName() == null ? driver.id() : driver.capabilities().displayName();
      boolean ready = driver.auth() == null || driver.auth().ok();
      available.add(new AcpSchema.SessionMode(driver.id(), name, "Run this task's turns with the " + driver.id() + " driver"
          + (ready ? "" : " (unavailable: " + driver.auth().detail() + ")")));
    }
    return new AcpSchema.SessionModeState(current, available);
  }

  // ---- prompts ----

  private AcpSchema.PromptResponse prompt(JsonNode params) {
    long id = taskOf(params, "session/prompt");
    String sessionId = sessionId(id);
    String text = promptText(params.path("prompt"));
    AcpSessionConfig config = config(id);
    AcpPrompt prompt = new AcpPrompt(hub, client, executor, offers, sessionId, id, config.model(), config.permissionMode(), config.mcpServers());
    if (prompts.putIfAbsent(sessionId, prompt) != null) {
      throw new AcpError(AcpError.INVALID_REQUEST, "session " + sessionId + " already has a prompt running; cancel it or wait for its answer");
    }
    if (inputEnded) {
      prompt.abandon(); // read just before the end of the input: it is sent, not followed
    }
    try {
      retitle(id, text);
      return prompt.run(text);
    } finally {
      prompts.remove(sessionId, prompt);
    }
  }

  /** A task this face created is titled after its first prompt. */
  private void retitle(long id, String text) {
    if (NEW_SESSION_TITLE.equals(hub.taskGet(id).title())) {
      String line = text.strip().lines().findFirst().orElse(NEW_SESSION_TITLE);
      String title = line.length() > 80 ? line.substring(0, 80) + "…" : line;
      hub.taskUpdate(new BoardApi.TaskUpdate(id, title, null, null, null, null, null, null, null, null, null, null, null));
    }
  }

  private static String promptText(JsonNode blocks) {
    if (!blocks.isArray() || blocks.isEmpty()) {
      throw AcpError.invalidParams("session/prompt: params.prompt is required: an array of content blocks");
    }
    List<String> parts = new ArrayList<>();
    for (JsonNode block : blocks) {
      switch (block.path("type").asText()) {
        case "text" -> parts.add(block.path("text").asText(""));
        case "resource_link" -> parts.add("[" + block.path("name").asText(block.path("uri").asText()) + "](" + block.path("uri").asText() + ")");
        case "resource" -> {
          JsonNode resource = block.path("resource");
          if (resource.hasNonNull("text")) {
            parts.add(resource.path("uri").asText("context") + ":\n```\n" + resource.get("text").asText() + "\n```");
          } else {
            parts.add("[" + resource.path("uri").asText("attachment") + "]");
          }
        }
        default -> throw AcpError.invalidParams("session/prompt: content of type " + block.path("type") + " is not supported (text, resource_link and resource are)");
      }
    }
    String text = String.join("\n\n", parts).strip();
    if (text.isEmpty()) {
      throw AcpError.invalidParams("session/prompt: the prompt has no text");
    }
    return text;
  }

  // ---- helpers ----

  static String sessionId(long task) {
    return "task-" + task;
  }

  private static long taskOf(JsonNode params, String method) {
    String sessionId = params.path("sessionId").asText("");
    if (sessionId.startsWith("task-")) {
      try {
        long id = Long.parseLong(sessionId.substring("task-".length()));
        if (id > 0) {
          return id;
        }
      } catch (NumberFormatException e) {
        // described below
      }
    }
    throw AcpError.invalidParams(method + ": params.sessionId must be a Roundhouse session id such as \"task-12\", not " + params.path("sessionId"));
  }

  private static Path cwd(JsonNode params, String method) {
    JsonNode cwd = params.get("cwd");
    if (cwd == null || !cwd.isTextual() || cwd.asText().isBlank()) {
      throw AcpError.invalidParams(method + ": params.cwd is required: the absolute path of the project's directory");
    }
    try {
      Path path = Path.of(cwd.asText());
      if (!path.isAbsolute()) {
        throw AcpError.invalidParams(method + ": params.cwd must be an absolute path, not " + cwd.asText());
      }
      return path.normalize();
    } catch (InvalidPathException e) {
      throw AcpError.invalidParams(method + ": params.cwd is not a path: " + e.getMessage());
    }
  }

  /** The project whose path is {@code cwd} or, failing that, the innermost one that contains it. */
  private Project projectFor(Path cwd) {
    return projectFor(cwd, hub.projectList());
  }

  private static Project projectFor(Path cwd, List<Project> projects) {
    Project best = null;
    int bestDepth = -1;
    for (Project project : projects) {
      Path root;
      try {
        root = Path.of(project.path() == null ? "" : project.path()).normalize();
      } catch (InvalidPathException e) {
        continue;
      }
      if (root.isAbsolute() && cwd.startsWith(root) && root.getNameCount() > bestDepth) {
        best = project;
        bestDepth = root.getNameCount();
      }
    }
    if (best != null) {
      return best;
    }
    StringBuilder known = new StringBuilder();
    for (Project project : projects) {
      known.append(known.isEmpty() ? "" : ", ").append(project.name()).append(" (").append(project.path()).append(')');
    }
    throw new AcpError(AcpError.INVALID_PARAMS, "no Roundhouse project has the path " + cwd + (projects.isEmpty() ? "; the hub has no projects yet: add one with roundhouse project add" : "; known projects: " + known),
        Json.mapper().createObjectNode().put("cwd", cwd.toString()));
  }
}
