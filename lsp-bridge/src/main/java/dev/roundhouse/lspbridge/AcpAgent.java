package dev.roundhouse.lspbridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
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

  private final HubHttp hub;
  private final AcpConnection client;
  private final ExecutorService executor;
  private final Map<String, AcpPrompt> prompts = new ConcurrentHashMap<>();
  private final Map<String, AcpSessionConfig> configs = new ConcurrentHashMap<>();
  private final AcpDecisionOffers offers;

  private AcpAgent(HubHttp hub, AcpConnection client, ExecutorService executor, Supplier<HubAddress> locator) {
    this.hub = hub;
    this.client = client;
    this.executor = executor;
    this.offers = new AcpDecisionOffers(hub, client, executor, locator, java.time.Duration.ofSeconds(1));
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
    try (HubHttp hub = new HubHttp(locator)) {
      AcpConnection connection = new AcpConnection(in, out, executor);
      AcpAgent agent = new AcpAgent(hub, connection, executor, locator);
      try {
        connection.run(agent.handler());
      } finally {
        agent.offers.close();
      }
      agent.prompts.values().forEach(AcpPrompt::abandon);
      return 0;
    } finally {
      executor.shutdownNow();
    }
  }

  private AcpConnection.Handler handler() {
    return new AcpConnection.Handler() {
      @Override
      public JsonNode request(String method, JsonNode params) {
        if (!params.isObject()) {
          throw AcpError.invalidParams(method + ": params must be a JSON object");
        }
        return switch (method) {
          case "initialize" -> initialize(params);
          case "authenticate" -> Json.mapper().createObjectNode();
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

  private JsonNode initialize(JsonNode params) {
    ObjectNode result = Json.mapper().createObjectNode();
    result.put("protocolVersion", PROTOCOL_VERSION);
    ObjectNode capabilities = result.putObject("agentCapabilities");
    capabilities.put("loadSession", true);
    ObjectNode prompt = capabilities.putObject("promptCapabilities");
    prompt.put("image", false);
    prompt.put("audio", false);
    prompt.put("embeddedContext", true);
    capabilities.putObject("mcpCapabilities").put("http", false).put("sse", false);
    capabilities.putObject("sessionCapabilities").putObject("list");
    result.putObject("agentInfo").put("name", "roundhouse").put("title", "Roundhouse").put("version", Hub.version());
    result.putArray("authMethods");
    return result;
  }

  // ---- sessions ----

  private JsonNode newSession(JsonNode params) {
    Path cwd = cwd(params, "session/new");
    JsonNode joined = params.path("_meta").path("roundhouse").path("task");
    JsonNode task;
    JsonNode project = projectFor(cwd);
    if (!joined.isMissingNode() && !joined.isNull()) {
      if (!joined.canConvertToLong() || joined.asLong() < 1) {
        throw AcpError.invalidParams("session/new: _meta.roundhouse.task must be a task id (a whole number ≥ 1), not " + joined);
      }
      task = hub.callTree("task_get", Map.of("task", joined.asLong()));
    } else {
      task = hub.callTree("task_create", Map.of("project", project.path("id").asText(), "title", "Editor session", "status", "in_progress"));
    }
    long id = task.path("id").asLong();
    ObjectNode result = Json.mapper().createObjectNode();
    result.put("sessionId", sessionId(id));
    result.set("modes", modes(task, project));
    result.set("configOptions", config(id).options(currentDriver(task, project)));
    result.putObject("_meta").putObject("roundhouse").put("task", id).put("project", project.path("name").asText());
    return result;
  }

  private JsonNode loadSession(JsonNode params) {
    long id = taskOf(params, "session/load");
    JsonNode task = hub.callTree("task_get", Map.of("task", id));
    JsonNode project = params.hasNonNull("cwd") ? projectFor(cwd(params, "session/load")) : Json.mapper().createObjectNode();
    String sessionId = sessionId(id);
    Long after = null;
    while (true) {
      ObjectNode input = Json.mapper().createObjectNode().put("task", id).put("limit", 1000);
      if (after != null) {
        input.put("after", after);
      }
      JsonNode page = hub.callTree("task_transcript", input);
      for (JsonNode entry : page.path("entries")) {
        replay(sessionId, entry);
      }
      if (!page.path("has_more").asBoolean(false) || !page.path("last_seq").canConvertToLong()) {
        break;
      }
      after = page.path("last_seq").asLong();
    }
    ObjectNode result = Json.mapper().createObjectNode();
    result.set("modes", modes(task, project));
    result.set("configOptions", config(id).options(currentDriver(task, project)));
    return result;
  }

  /** Sends one stored transcript entry as the update a live turn would have produced. */
  private void replay(String sessionId, JsonNode entry) {
    JsonNode data = entry.path("data");
    ObjectNode update =
        switch (entry.path("type").asText()) {
          case "turn.user_message" -> AcpUpdates.chunk("user_message_chunk", data.path("text").asText(""));
          case "turn.message" -> AcpUpdates.chunk("agent_message_chunk", data.path("text").asText(""));
          case "turn.thought" -> AcpUpdates.chunk("agent_thought_chunk", data.path("text").asText(""));
          case "turn.plan" -> AcpUpdates.plan(data);
          case "turn.tool_call" -> AcpUpdates.toolCall(data);
          case "turn.tool_result" -> AcpUpdates.toolResult(data);
          case "turn.permission_denied" -> data.hasNonNull("call_id") ? AcpUpdates.toolDenied(data) : null;
          default -> null;
        };
    if (update != null) {
      ObjectNode params = Json.mapper().createObjectNode();
      params.put("sessionId", sessionId);
      params.set("update", update);
      client.notify("session/update", params);
    }
  }

  private JsonNode listSessions(JsonNode params) {
    List<JsonNode> projects = projects();
    Map<String, Object> input = new java.util.HashMap<>();
    input.put("limit", 200);
    if (params.hasNonNull("cwd")) {
      input.put("project", projectFor(cwd(params, "session/list")).path("id").asText());
    }
    ObjectNode result = Json.mapper().createObjectNode();
    ArrayNode sessions = result.putArray("sessions");
    for (JsonNode task : hub.callTree("task_list", input).path("tasks")) {
      ObjectNode session = sessions.addObject();
      session.put("sessionId", sessionId(task.path("id").asLong()));
      String path = "";
      for (JsonNode project : projects) {
        if (project.path("id").asLong() == task.path("project_id").asLong(-1)) {
          path = project.path("path").asText("");
        }
      }
      session.put("cwd", path);
      session.put("title", task.path("title").asText(""));
      if (task.hasNonNull("updated_at")) {
        session.put("updatedAt", task.get("updated_at").asText());
      }
    }
    return result;
  }

  private JsonNode setMode(JsonNode params) {
    long id = taskOf(params, "session/set_mode");
    String mode = params.path("modeId").asText("");
    if (mode.isBlank()) {
      throw AcpError.invalidParams("session/set_mode: params.modeId is required: a Roundhouse driver id");
    }
    config(id).set(AcpSessionConfig.DRIVER, Json.mapper().getNodeFactory().textNode(mode), currentDriver(id));
    return Json.mapper().createObjectNode();
  }

  private JsonNode setConfigOption(JsonNode params) {
    long id = taskOf(params, "session/set_config_option");
    String configId = params.path("configId").asText("");
    if (configId.isBlank()) {
      throw AcpError.invalidParams("session/set_config_option: params.configId is required: driver, model or permission_mode");
    }
    AcpSessionConfig config = config(id);
    config.set(configId, params.path("value"), currentDriver(id));
    ObjectNode result = Json.mapper().createObjectNode();
    result.set("configOptions", config.options(currentDriver(id)));
    return result;
  }

  private AcpSessionConfig config(long task) {
    return configs.computeIfAbsent(sessionId(task), s -> new AcpSessionConfig(hub, task));
  }

  private String currentDriver(long task) {
    JsonNode stored = hub.callTree("task_get", Map.of("task", task));
    return currentDriver(stored, hub.callTree("project_get", Map.of("project", stored.path("project_id").asText())));
  }

  /** The task's agent, else its project's default agent, else the first driver. */
  private String currentDriver(JsonNode task, JsonNode project) {
    String current = task.path("agent").asText("");
    if (current.isBlank()) {
      current = project.path("default_agent").asText("");
    }
    if (current.isBlank()) {
      current = hub.callTree("driver_list", Map.of()).path("drivers").path(0).path("id").asText("");
    }
    return current;
  }

  /** The drivers as session modes: choosing one sets the task's agent. */
  private ObjectNode modes(JsonNode task, JsonNode project) {
    ObjectNode modes = Json.mapper().createObjectNode();
    ArrayNode available = modes.putArray("availableModes");
    String first = null;
    for (JsonNode driver : hub.callTree("driver_list", Map.of()).path("drivers")) {
      String id = driver.path("id").asText();
      if (first == null) {
        first = id;
      }
      ObjectNode mode = available.addObject();
      mode.put("id", id);
      mode.put("name", driver.path("capabilities").path("display_name").asText(driver.path("display_name").asText(id)));
      mode.put("description", "Run this task's turns with the " + id + " driver");
    }
    String current = task.path("agent").asText("");
    if (current.isBlank()) {
      current = project.path("default_agent").asText("");
    }
    if (current.isBlank() && first != null) {
      current = first;
    }
    modes.put("currentModeId", current);
    return modes;
  }

  // ---- prompts ----

  private JsonNode prompt(JsonNode params) {
    long id = taskOf(params, "session/prompt");
    String sessionId = sessionId(id);
    String text = promptText(params.path("prompt"));
    AcpSessionConfig config = config(id);
    AcpPrompt prompt = new AcpPrompt(hub, client, executor, offers, sessionId, id, config.model(), config.permissionMode());
    if (prompts.putIfAbsent(sessionId, prompt) != null) {
      throw new AcpError(AcpError.INVALID_REQUEST, "session " + sessionId + " already has a prompt running; cancel it or wait for its answer");
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
    JsonNode task = hub.callTree("task_get", Map.of("task", id));
    if (task.path("title").asText().equals("Editor session")) {
      String line = text.strip().lines().findFirst().orElse("Editor session");
      hub.callTree("task_update", Map.of("task", id, "title", line.length() > 80 ? line.substring(0, 80) + "…" : line));
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

  private List<JsonNode> projects() {
    List<JsonNode> projects = new ArrayList<>();
    hub.callTree("project_list", Map.of()).path("projects").forEach(projects::add);
    return projects;
  }

  /** The project whose path is {@code cwd} or, failing that, the innermost one that contains it. */
  private JsonNode projectFor(Path cwd) {
    List<JsonNode> projects = projects();
    JsonNode best = null;
    int bestDepth = -1;
    for (JsonNode project : projects) {
      Path root;
      try {
        root = Path.of(project.path("path").asText("")).normalize();
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
    for (JsonNode project : projects) {
      known.append(known.isEmpty() ? "" : ", ").append(project.path("name").asText()).append(" (").append(project.path("path").asText()).append(')');
    }
    throw new AcpError(AcpError.INVALID_PARAMS, "no Roundhouse project has the path " + cwd + (projects.isEmpty() ? "; the hub has no projects yet: add one with roundhouse project add" : "; known projects: " + known),
        Json.mapper().createObjectNode().put("cwd", cwd.toString()));
  }
}
