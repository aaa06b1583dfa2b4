package dev.roundhouse.lspbridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A session's ACP configuration options: the Roundhouse driver (the task's agent, stored in the hub), and
 * the model and the agent's permission mode for the turns this connection starts (kept here, passed to
 * {@code turn_start}). The choices come from {@code driver_list}: a driver's own models and permission
 * modes, plus {@code default} (the driver's default), so no face branches on a driver id.
 *
 * <p>Thread-safe: the choices are volatile fields; a client sets one option at a time.
 */
final class AcpSessionConfig {
  static final String DRIVER = "driver";
  static final String MODEL = "model";
  static final String PERMISSION_MODE = "permission_mode";
  static final String DEFAULT = "default";

  private final HubHttp hub;
  private final long task;
  private volatile String model = DEFAULT;
  private volatile String permissionMode = DEFAULT;

  AcpSessionConfig(HubHttp hub, long task) {
    this.hub = hub;
    this.task = task;
  }

  /** The model to pass to {@code turn_start}, or null for the driver's default. */
  String model() {
    return DEFAULT.equals(model) ? null : model;
  }

  /** The permission mode to pass to {@code turn_start}, or null for the driver's default. */
  String permissionMode() {
    return DEFAULT.equals(permissionMode) ? null : permissionMode;
  }

  /** The options and their current values, as {@code configOptions}. */
  ArrayNode options(String currentDriver) {
    List<JsonNode> drivers = new ArrayList<>();
    hub.callTree("driver_list", Map.of()).path("drivers").forEach(drivers::add);
    JsonNode driver = drivers.stream().filter(d -> d.path("id").asText().equals(currentDriver)).findFirst()
        .orElse(Json.mapper().createObjectNode());
    ArrayNode options = Json.mapper().createArrayNode();
    ObjectNode drivers0 = select(options, DRIVER, "Agent", "mode", "The Roundhouse driver that runs this task's turns", currentDriver);
    for (JsonNode d : drivers) {
      String id = d.path("id").asText();
      JsonNode auth = d.path("auth");
      choice(drivers0, id, d.path("capabilities").path("display_name").asText(id),
          auth.path("ok").asBoolean(true) ? null : "not ready: " + auth.path("detail").asText());
    }
    addList(select(options, MODEL, "Model", "model", "The model for the next turns", model),
        driver.path("capabilities").path("models"));
    addList(select(options, PERMISSION_MODE, "Permission mode", "_permission_mode",
        "The agent's own permission mode for the next turns; the hub's gate asks you either way", permissionMode),
        driver.path("capabilities").path("permission_modes"));
    return options;
  }

  /**
   * Applies {@code session/set_config_option}: a driver goes to the task ({@code task_update agent}), a
   * model or permission mode is kept for the turns this connection starts.
   *
   * @throws AcpError invalid params naming the option or value when either is unknown
   */
  void set(String configId, JsonNode value, String currentDriver) {
    if (!value.isTextual() || value.asText().isBlank()) {
      throw AcpError.invalidParams("session/set_config_option: params.value must be a value id (a string), not " + value);
    }
    String chosen = value.asText();
    ArrayNode options = options(currentDriver);
    JsonNode option = null;
    for (JsonNode candidate : options) {
      if (candidate.path("id").asText().equals(configId)) {
        option = candidate;
      }
    }
    if (option == null) {
      throw AcpError.invalidParams("session/set_config_option: no option '" + configId + "'; the options are "
          + String.join(", ", List.of(DRIVER, MODEL, PERMISSION_MODE)));
    }
    List<String> allowed = new ArrayList<>();
    option.path("options").forEach(o -> allowed.add(o.path("value").asText()));
    if (!allowed.contains(chosen)) {
      throw AcpError.invalidParams("session/set_config_option: '" + chosen + "' is not a choice of " + configId
          + "; the choices are " + String.join(", ", allowed));
    }
    switch (configId) {
      case DRIVER -> {
        hub.callTree("task_update", Map.of("task", task, "agent", chosen));
        model = DEFAULT; // another driver's models and modes do not carry over
        permissionMode = DEFAULT;
      }
      case MODEL -> model = chosen;
      default -> permissionMode = chosen;
    }
  }

  private static ObjectNode select(ArrayNode options, String id, String name, String category, String description, String current) {
    ObjectNode option = options.addObject();
    option.put("id", id);
    option.put("name", name);
    option.put("description", description);
    option.put("category", category);
    option.put("type", "select");
    option.put("currentValue", current);
    option.putArray("options");
    return option;
  }

  private static void addList(ObjectNode select, JsonNode values) {
    choice(select, DEFAULT, "Default", "the driver's default");
    for (JsonNode value : values) {
      if (!value.asText().equals(DEFAULT)) {
        choice(select, value.asText(), value.asText(), null);
      }
    }
  }

  private static void choice(ObjectNode select, String value, String name, String description) {
    ObjectNode choice = ((ArrayNode) select.get("options")).addObject();
    choice.put("value", value);
    choice.put("name", name);
    if (description != null) {
      choice.put("description", description);
    }
  }
}
