package dev.roundhouse.services.hub;

import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.spi.ExtensionContext;
import dev.roundhouse.hub.spi.ExtensionResource;
import dev.roundhouse.hub.spi.HubExtension;
import dev.roundhouse.hub.spi.TurnContributor;
import dev.roundhouse.hub.spi.TurnPlace;
import dev.roundhouse.hub.spi.TurnPlacer;
import dev.roundhouse.services.LogChunk;
import dev.roundhouse.services.LogLine;
import dev.roundhouse.services.ServiceException;
import dev.roundhouse.services.Terminals;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import dev.roundhouse.hub.ops.OperationRegistry;

/**
 * The services module's hub extension: the {@code service_*} operations over one supervisor per project
 * (created on first use), the registry and the process journal in the hub's store (so a boot reaps what the last
 * run left and restores what was running), each project's stable PORT in every service's, terminal's and agent
 * turn's environment, a service's log as SSE ({@code /api/x/services/…}) and as an MCP resource, PTY
 * terminals over a WebSocket ({@code /api/x/pty}), and exposed services as a reverse proxy ({@code /api/x/expose/…}
 * with the hub's token, {@code /api/x/share/<link>/…} without), each exposure a decision of the user's. See
 * docs/services.md.
 *
 * <p>Thread-safe: what {@link #start} creates is published through atomic references and not changed after.
 */
public final class ServicesExtension implements HubExtension {
  private static final Duration KEEP_ALIVE = Duration.ofSeconds(15);
  private static final int RESOURCE_LINES = 200;
  private static final Set<String> AGENT_TOOLS = java.util.stream.Stream.concat(
      ServiceOperations.AGENT_TOOLS.stream(), ExposeOperations.AGENT_TOOLS.stream()).collect(java.util.stream.Collectors.toUnmodifiableSet());

  private final ServicesSettings settings;
  private final SecureRandom random;
  private final AtomicReference<HubServices> services = new AtomicReference<>();
  private final AtomicReference<TerminalRoute> terminals = new AtomicReference<>();
  private volatile boolean closed;

  /** With the default settings over the hub's environment. */
  public ServicesExtension() {
    this(ServicesSettings.defaults());
  }

  public ServicesExtension(ServicesSettings settings) {
    this(settings, new SecureRandom());
  }

  /** With {@code random} for the shared links' tokens. */
  public ServicesExtension(ServicesSettings settings, SecureRandom random) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.random = Objects.requireNonNull(random, "random");
  }

  @Override
  public String name() {
    return "services";
  }

  /**
   * Registers the services' operations in {@code registry} for their descriptions only (the generated reference);
   * the registry must never invoke them.
   */
  public static void describe(OperationRegistry registry) {
    new ServiceOperations(null).register(registry);
    new ExposeOperations(null, null).register(registry);
  }

  @Override
  public void start(ExtensionContext context) {
    ServiceRecords records = new ServiceRecords(context.records(ServiceRecords.NAMESPACE));
    LogChanges changes = new LogChanges(settings.scheduler(), settings.logNoticeInterval(),
        uri -> context.resourcesChanged(LogChanges.actor(), uri));
    HubServices hub = new HubServices(context, settings, records, changes);
    services.set(hub);
    new ServiceOperations(hub).register(context.operations());
    Exposures exposures = new Exposures(hub, random);
    new ExposeOperations(hub, exposures).register(context.operations());
    context.decisions().onAnswer(Exposures.KIND, exposures::answered);
    context.serve(Exposures.PRIVATE_ROUTE, new ExposedRoute(hub, exposures, false));
    context.serveLinks(Exposures.SHARED_ROUTE, new ExposedRoute(hub, exposures, true));
    context.placeTurns(new PortPlacer(hub));
    context.contributeToTurns(new AgentServices(hub));
    context.offerResource(logResource(hub));
    context.serve("services", new LogRoute(hub, KEEP_ALIVE, () -> closed));
    Terminals sessions = Terminals.create(context.processes(), settings.scheduler(), records.journal(null),
        settings.reattachGrace(), settings.scrollbackBytes(), settings.hangupGrace(), settings.baseEnv());
    TerminalRoute route = new TerminalRoute(hub, sessions);
    terminals.set(route);
    context.stopTaskProcessesWith(new TaskProcesses(hub, sessions));
    context.serve("pty", route);
    hub.recover();
  }

  /** Hangs up every terminal and stops every service; what was asked to run stays stored for the next boot. */
  @Override
  public void close() {
    closed = true;
    TerminalRoute route = terminals.getAndSet(null);
    if (route != null) {
      route.close();
    }
    HubServices hub = services.getAndSet(null);
    if (hub != null) {
      hub.close();
    }
  }

  private static ExtensionResource logResource(HubServices hub) {
    return new ExtensionResource(LogChanges.LOG, "service-log", "Service log",
        "The last " + RESOURCE_LINES + " lines a dev service printed (stdout and stderr, a marker where lines were skipped);"
            + " subscribers hear of new lines at most once a second. _meta: status, next_offset (operation service_logs).",
        "text/plain", "service_logs", (actor, uri, variables) -> {
          Project project = hub.project(URLDecoder.decode(variables.get("project"), StandardCharsets.UTF_8));
          ProjectServices target = hub.of(project);
          String service = variables.get("service");
          if (target.declared(service).isEmpty()) {
            throw new RoundhouseException.NotFound("no service " + service + " in project " + project.name());
          }
          try {
            LogChunk chunk = target.supervisor().logs(service, -RESOURCE_LINES, RESOURCE_LINES);
            StringBuilder text = new StringBuilder();
            for (LogLine line : chunk.lines()) {
              text.append(line.stream() == LogLine.Stream.STDERR ? "! " : line.stream() == LogLine.Stream.MARKER ? "# " : "")
                  .append(line.text()).append('\n');
            }
            return new ExtensionResource.Contents("text/plain", text.toString(), Map.of(
                "status", Json.tree(target.supervisor().state(service).status()).asText(),
                "next_offset", String.valueOf(chunk.nextOffset())));
          } catch (ServiceException e) {
            throw new RoundhouseException.NotFound(e.getMessage());
          }
        });
  }

  /** Every turn of every task gets its project's PORT and extra ports. */
  private record PortPlacer(HubServices hub) implements TurnPlacer {
    @Override
    public TurnPlace place(Project project, Task task, TurnPlace place) {
      TurnPlace placed = place;
      for (Map.Entry<String, String> variable : hub.ports().environment(project).entrySet()) {
        placed = placed.withVariable(variable.getKey(), variable.getValue());
      }
      return placed;
    }
  }

  /** Gives agents the service operations they may use, and says what runs, in projects that declare services. */
  private record AgentServices(HubServices hub) implements TurnContributor {
    @Override
    public boolean owns(Project project, Task task) {
      return hub.existing(project.id()).map(services -> !services.supervisor().definitions().isEmpty())
          .orElseGet(() -> !hub.records().definitions(project.id()).isEmpty());
    }

    @Override
    public Set<String> agentTools() {
      return AGENT_TOOLS;
    }

    @Override
    public String turnContext(Project project, Task task) {
      ProjectServices services = hub.of(project);
      List<String> lines = services.supervisor().list().stream()
          .map(state -> "- " + state.name() + " (" + state.kind().name().toLowerCase() + "): " + state.status().name().toLowerCase()
              + (state.message() == null ? "" : ", " + state.message()))
          .toList();
      return "Dev services of project " + project.name() + " (PORT=" + services.supervisor().port()
          + "; read logs with service_logs, start/stop/restart with service_start/service_stop/service_restart;"
          + " to make one reachable through the hub, ask with expose_service: the user decides):\n"
          + String.join("\n", lines);
    }
  }
}
