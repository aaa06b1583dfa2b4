package dev.roundhouse.lspbridge.acp;

import com.agentclientprotocol.sdk.spec.AcpSchema;
import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.api.BoardApi;
import dev.roundhouse.hub.api.TurnApi;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Turn;
import dev.roundhouse.hub.model.TurnStatus;
import dev.roundhouse.hub.model.McpServerSpec;
import dev.roundhouse.hub.spi.DriverCapabilities;
import dev.roundhouse.hubclient.RemoteHub;
import java.util.ArrayList;
import java.util.List;

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

  private final RemoteHub hub;
  private final long task;
  private volatile String model = DEFAULT;
  private volatile String permissionMode = DEFAULT;
  private volatile List<McpServerSpec> mcpServers = List.of();

  AcpSessionConfig(RemoteHub hub, long task) {
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

  /** The MCP servers the client gave for this session (the last {@code session/new} or {@code session/load}). */
  List<McpServerSpec> mcpServers() {
    return mcpServers;
  }

  void useMcpServers(List<McpServerSpec> servers) {
    mcpServers = List.copyOf(servers);
  }

  /**
   * Refuses a driver that cannot run here (its CLI is not installed, not logged in, no key), with the
   * driver's own reason ({@code driver_list}'s auth check), so the client learns it when choosing the mode
   * rather than at the next prompt.
   *
   * @throws AcpError invalid params naming the driver and what it lacks
   */
  static void requireReady(String method, String driver, List<TurnApi.DriverInfo> drivers) {
    drivers.stream().filter(d -> d.id().equals(driver)).findFirst().ifPresent(info -> {
      if (info.auth() != null && !info.auth().ok()) {
        throw new AcpError(AcpError.INVALID_PARAMS, method + ": the " + driver + " driver cannot run here: " + info.auth().detail(),
            Json.mapper().createObjectNode().put("driver", driver).put("reason", info.auth().detail()));
      }
    });
  }

  /**
   * The options and their current values, as {@code configOptions}.
   *
   * @param drivers the hub's drivers ({@code driver_list})
   * @param currentDriver the driver the task's next turn runs with
   */
  List<AcpSchema.SessionConfigSelect> options(List<TurnApi.DriverInfo> drivers, String currentDriver) {
    DriverCapabilities capabilities = drivers.stream().filter(d -> d.id().equals(currentDriver)).findFirst()
        .map(TurnApi.DriverInfo::capabilities).orElse(null);
    List<AcpSchema.SessionConfigSelectOption> driverChoices = new ArrayList<>();
    for (TurnApi.DriverInfo driver : drivers) {
      String name = driver.capabilities() == null || driver.capabilities().displayName() == null ? driver.id() : driver.capabilities().displayName();
      boolean ready = driver.auth() == null || driver.auth().ok();
      driverChoices.add(choice(driver.id(), name, ready ? null : "not ready: " + driver.auth().detail()));
    }
    return List.of(
        select(DRIVER, "Agent", "mode", "The Roundhouse driver that runs this task's turns", currentDriver, driverChoices),
        select(MODEL, "Model", "model", "The model for the next turns", model, withDefault(capabilities == null ? List.of() : capabilities.models())),
        select(PERMISSION_MODE, "Permission mode", "_permission_mode",
            "The agent's own permission mode for the next turns; the hub's gate asks you either way", permissionMode,
            withDefault(capabilities == null ? List.of() : capabilities.permissionModes())));
  }

  /**
   * Applies {@code session/set_config_option}: a driver goes to the task ({@code task_update agent}), a
   * model or permission mode is kept for the turns this connection starts.
   *
   * @throws AcpError invalid params naming the option or value when either is unknown
   */
  void set(String configId, JsonNode value, List<TurnApi.DriverInfo> drivers, String currentDriver) {
    if (!value.isTextual() || value.asText().isBlank()) {
      throw AcpError.invalidParams("session/set_config_option: params.value must be a value id (a string), not " + value);
    }
    String chosen = value.asText();
    AcpSchema.SessionConfigSelect option = options(drivers, currentDriver).stream().filter(o -> o.id().equals(configId)).findFirst()
        .orElseThrow(() -> AcpError.invalidParams("session/set_config_option: no option '" + configId + "'; the options are "
            + String.join(", ", List.of(DRIVER, MODEL, PERMISSION_MODE))));
    List<String> allowed = option.options().stream().map(AcpSchema.SessionConfigSelectOption::value).toList();
    if (!allowed.contains(chosen)) {
      throw AcpError.invalidParams("session/set_config_option: '" + chosen + "' is not a choice of " + configId
          + "; the choices are " + String.join(", ", allowed));
    }
    switch (configId) {
      case DRIVER -> {
        requireReady("session/set_config_option", chosen, drivers);
        hub.taskUpdate(new BoardApi.TaskUpdate(task, null, null, null, null, null, null, null, chosen, null, null, null, null));
        endLingeringSessionOfAnotherDriver(chosen);
        model = DEFAULT; // another driver's models and modes do not carry over
        permissionMode = DEFAULT;
      }
      case MODEL -> model = chosen;
      default -> permissionMode = chosen;
    }
  }

  /**
   * A session of another driver that lingers would take the next prompt (a prompt goes to a lingering turn
   * first): choosing a mode ends it, so the next prompt starts a turn with the chosen driver. A running turn
   * is left alone; the messages queued behind it run with the task's driver as it was when they were sent.
   */
  private void endLingeringSessionOfAnotherDriver(String chosen) {
    List<Turn> latest = hub.turnList(new TurnApi.TurnListQuery(task, 1)).turns();
    if (!latest.isEmpty() && latest.getFirst().status() == TurnStatus.LINGERING && !latest.getFirst().driver().equals(chosen)) {
      try {
        hub.turnStop(task);
      } catch (RoundhouseException e) {
        // it ended meanwhile
      }
    }
  }

  private static AcpSchema.SessionConfigSelect select(
      String id, String name, String category, String description, String current, List<AcpSchema.SessionConfigSelectOption> choices) {
    return new AcpSchema.SessionConfigSelect("select", id, name, description, category, current, choices, null);
  }

  /** {@code default} (the driver's default) and then the driver's own values. */
  private static List<AcpSchema.SessionConfigSelectOption> withDefault(List<String> values) {
    List<AcpSchema.SessionConfigSelectOption> choices = new ArrayList<>();
    choices.add(choice(DEFAULT, "Default", "the driver's default"));
    for (String value : values) {
      if (!value.equals(DEFAULT)) {
        choices.add(choice(value, value, null));
      }
    }
    return choices;
  }

  private static AcpSchema.SessionConfigSelectOption choice(String value, String name, String description) {
    return new AcpSchema.SessionConfigSelectOption(value, name, description, null);
  }
}
