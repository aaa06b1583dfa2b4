package dev.roundhouse.services.hub;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.events.EventDraft;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.ops.Operation;
import dev.roundhouse.hub.ops.OperationAnnotations;
import dev.roundhouse.hub.ops.OperationRegistry;
import dev.roundhouse.services.LogChunk;
import dev.roundhouse.services.ServiceDefinition;
import dev.roundhouse.services.ServiceException;
import dev.roundhouse.services.ServiceKind;
import dev.roundhouse.services.ServiceState;
import dev.roundhouse.services.ServiceStatus;
import dev.roundhouse.services.hub.ServicesApi.Defined;
import dev.roundhouse.services.hub.ServicesApi.Definition;
import dev.roundhouse.services.hub.ServicesApi.Logs;
import dev.roundhouse.services.hub.ServicesApi.LogsQuery;
import dev.roundhouse.services.hub.ServicesApi.ProjectRef;
import dev.roundhouse.services.hub.ServicesApi.Removed;
import dev.roundhouse.services.hub.ServicesApi.ServiceList;
import dev.roundhouse.services.hub.ServicesApi.ServiceRef;
import dev.roundhouse.services.hub.ServicesApi.ServiceView;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.LinkedHashMap;

/**
 * The {@code service_*} operations: thin calls on a project's supervisor, with the stored registry kept beside
 * it. Actor rules: people and clients do everything; an agent may list, read logs, start, stop and restart the
 * services of its own task's project, and may not define, change or remove them (a command it declares would
 * run again at every boot). Engine errors become the hub's: an unknown service is {@code not_found}, a taken
 * port or a running service in the way is a {@code conflict}, a malformed definition {@code invalid_input}.
 *
 * <p>Thread-safe: stateless beyond {@link HubServices}.
 */
final class ServiceOperations {
  static final Set<String> AGENT_TOOLS = Set.of("service_list", "service_logs", "service_start", "service_stop",
      "service_restart");
  private static final int DEFAULT_LINES = 200;
  private static final int MAX_LINES = 2_000;
  private static final int MAX_WAIT_SECONDS = 300;

  private final HubServices services;

  ServiceOperations(HubServices services) {
    this.services = services;
  }

  void register(OperationRegistry registry) {
    registry.register(Operation.of("service_list",
        "A project's dev services (definition and state: status, pid, exit code, restarts, message) and its ports (PORT, PORT_1..PORT_9).",
        ProjectRef.class, ServiceList.class, OperationAnnotations.READ, this::list));
    registry.register(Operation.of("service_start",
        "Start a service after what it depends on (setup services run to a clean exit first) in its own process group;"
            + " answers at once with status starting, or waits for an outcome with wait_seconds. A port held by another process is refused, naming it.",
        ServiceRef.class, ServiceState.class, OperationAnnotations.UPDATE, this::start));
    registry.register(Operation.of("service_stop",
        "Stop a service: SIGTERM to its whole process group, SIGKILL after the grace period; answers once nothing of it is left.",
        ServiceRef.class, ServiceState.class, OperationAnnotations.UPDATE, this::stop));
    registry.register(Operation.of("service_restart",
        "Stop a service (if running) and start it again; wait_seconds waits for the outcome.",
        ServiceRef.class, ServiceState.class, OperationAnnotations.CREATE, this::restart));
    registry.register(Operation.of("service_logs",
        "Lines a service printed (stdout and stderr), from an offset (next_offset of the previous read); lines the bounded"
            + " log dropped before you read them are replaced by one marker line saying how many.",
        LogsQuery.class, Logs.class, OperationAnnotations.READ, this::logs));
    registry.register(Operation.of("service_define",
        "Declare a service of a project (or replace one that is stopped or running: it uses the new definition from its next start):"
            + " a command, its working directory (the project, or a task's worktree), environment, kind, restart policy and readiness check.",
        Definition.class, Defined.class, OperationAnnotations.UPDATE, this::define));
    registry.register(Operation.of("service_update",
        "Change some fields of a declared service; absent fields keep their value (give command or argv to replace the command).",
        Definition.class, Defined.class, OperationAnnotations.UPDATE, this::update));
    registry.register(Operation.of("service_remove",
        "Remove a stopped service that no other service depends on.",
        ServiceRef.class, Removed.class, OperationAnnotations.DESTRUCTIVE, this::remove));
  }

  private ServiceList list(Actor actor, ProjectRef in) {
    Project project = allowed(actor, in.project());
    ProjectServices declared = services.of(project);
    List<ServiceView> views = declared.supervisor().list().stream()
        .map(state -> new ServiceView(view(project, declared.declared(state.name()).orElseThrow()), state))
        .toList();
    int port = services.ports().portOf(project);
    return new ServiceList(project.name(), project.id(), port, services.ports().extraPorts(port), views);
  }

  private ServiceState start(Actor actor, ServiceRef in) {
    Project project = allowed(actor, in.project());
    ProjectServices target = existing(project, in.service());
    services.records().want(new ServiceRecords.Wanted(project.id(), in.service(), actor, services.context().clock().instant()));
    target.actingFor(in.service(), actor);
    ServiceState state = engine(() -> target.supervisor().start(in.service()));
    return awaited(target, in, state);
  }

  private ServiceState stop(Actor actor, ServiceRef in) {
    Project project = allowed(actor, in.project());
    ProjectServices target = existing(project, in.service());
    services.records().unwant(project.id(), in.service());
    target.actingFor(in.service(), actor);
    return engine(() -> target.supervisor().stop(in.service()));
  }

  private ServiceState restart(Actor actor, ServiceRef in) {
    Project project = allowed(actor, in.project());
    ProjectServices target = existing(project, in.service());
    services.records().want(new ServiceRecords.Wanted(project.id(), in.service(), actor, services.context().clock().instant()));
    target.actingFor(in.service(), actor);
    ServiceState state = engine(() -> target.supervisor().restart(in.service()));
    return awaited(target, in, state);
  }

  private Logs logs(Actor actor, LogsQuery in) {
    Project project = allowed(actor, in.project());
    ProjectServices target = existing(project, in.service());
    int limit = in.limit() == null ? DEFAULT_LINES : in.limit();
    if (limit < 1 || limit > MAX_LINES) {
      throw new RoundhouseException.InvalidInput("limit " + limit + " is out of range: 1 to " + MAX_LINES);
    }
    long from = in.from() == null ? -DEFAULT_LINES : in.from();
    LogChunk chunk = engine(() -> target.supervisor().logs(in.service(), from, limit));
    return new Logs(chunk.service(), chunk.lines(), chunk.missed(), chunk.nextOffset());
  }

  private Defined define(Actor actor, Definition in) {
    Project project = allowed(actor, in.project());
    refuseAgent(actor, "define");
    ProjectServices target = services.of(project);
    boolean created = target.declared(in.name()).isEmpty();
    return store(actor, project, target, in, created);
  }

  private Defined update(Actor actor, Definition in) {
    Project project = allowed(actor, in.project());
    refuseAgent(actor, "change");
    ProjectServices target = existing(project, in.name());
    Definition before = view(project, target.declared(in.name()).orElseThrow());
    boolean newCommand = in.command() != null || in.argv() != null;
    Definition merged = new Definition(in.project(), in.name(),
        newCommand ? in.command() : before.command(),
        newCommand ? in.argv() : before.argv(),
        in.cwd() != null || in.task() != null ? in.cwd() : before.cwd(),
        in.task() != null ? in.task() : in.cwd() != null ? null : before.task(),
        in.env() != null ? in.env() : before.env(),
        in.kind() != null ? in.kind() : before.kind(),
        in.restart() != null ? in.restart() : before.restart(),
        in.readiness() != null ? in.readiness() : before.readiness(),
        in.dependsOn() != null ? in.dependsOn() : before.dependsOn());
    return store(actor, project, target, merged, false);
  }

  private Removed remove(Actor actor, ServiceRef in) {
    Project project = allowed(actor, in.project());
    refuseAgent(actor, "remove");
    ProjectServices target = existing(project, in.service());
    ServiceState state = target.supervisor().state(in.service());
    if (state.status().active()) {
      throw new RoundhouseException.Conflict("service " + in.service() + " of project " + project.name() + " is "
          + state.status().name().toLowerCase() + "; stop it before removing it");
    }
    engine(() -> {
      target.forget(in.service());
      return null;
    });
    services.records().deleteExposure(project.id(), in.service(), new EventDraft("service.unexposed", actor, project.id(),
        null, Json.tree(Map.of("project", project.name(), "service", in.service()))));
    services.records().deleteDefinition(project.id(), in.service(), new EventDraft("service.removed", actor, project.id(),
        null, Json.tree(Map.of("project", project.name(), "service", in.service()))));
    return new Removed(project.name(), in.service());
  }

  /** Validates and resolves a definition, stores it with its event, and gives it to the supervisor. */
  private Defined store(Actor actor, Project project, ProjectServices target, Definition in, boolean created) {
    Path folder = Path.of(project.path());
    Map<String, String> placeEnv = Map.of();
    if (in.task() != null) {
      Task task = services.task(in.task());
      if (task.projectId() != project.id()) {
        throw new RoundhouseException.InvalidInput("task " + in.task() + " is not in project " + project.name());
      }
      folder = services.context().placeOf(in.task()).workingDirectory();
    }
    String cwd = in.cwd() == null ? folder.toString() : folder.resolve(in.cwd()).normalize().toString();
    ServiceDefinition definition;
    try {
      definition = new ServiceDefinition(in.name(), in.argv(), in.command(), cwd, environment(in.env()), in.kind(),
          in.restart() == null ? null : in.restart().policy(), in.readiness() == null ? null : in.readiness().readiness(),
          in.dependsOn());
    } catch (ServiceException e) {
      throw new RoundhouseException.InvalidInput(e.getMessage());
    }
    for (String dependency : definition.dependsOn()) {
      if (target.declared(dependency).isEmpty()) {
        throw new RoundhouseException.InvalidInput("service " + in.name() + " depends on " + dependency
            + ", which project " + project.name() + " does not declare");
      }
    }
    ServiceRecords.StoredDefinition stored = new ServiceRecords.StoredDefinition(project.id(), definition, in.task(), in.cwd());
    Definition view = view(project, stored);
    services.records().putDefinition(stored, new EventDraft("service.defined", actor, project.id(), in.task(),
        Json.tree(Map.of("project", project.name(), "definition", view, "created", created))));
    target.actingFor(in.name(), actor);
    ServiceState state = engine(() -> {
      target.declare(stored);
      return target.supervisor().state(in.name());
    });
    return new Defined(view, state, created);
  }

  private ServiceState awaited(ProjectServices target, ServiceRef in, ServiceState state) {
    if (in.waitSeconds() == null || in.waitSeconds() <= 0) {
      return state;
    }
    Duration wait = Duration.ofSeconds(Math.min(in.waitSeconds(), MAX_WAIT_SECONDS));
    boolean setup = target.declared(in.service()).map(d -> d.definition().kind() == ServiceKind.SETUP).orElse(false);
    Set<ServiceStatus> outcomes = setup ? Set.of(ServiceStatus.EXITED, ServiceStatus.FAILED, ServiceStatus.STOPPED)
        : Set.of(ServiceStatus.READY, ServiceStatus.EXITED, ServiceStatus.FAILED, ServiceStatus.STOPPED);
    try {
      return target.supervisor().await(in.service(), outcomes, wait);
    } catch (ServiceException e) {
      return target.supervisor().state(in.service());
    }
  }

  private Project allowed(Actor actor, String reference) {
    return allowed(services, actor, reference);
  }

  /** The project, if {@code actor} may use its services (an agent: only its own task's project). */
  static Project allowed(HubServices services, Actor actor, String reference) {
    Project project = services.project(reference);
    if (actor.isAgent() && services.task(actor.taskId()).projectId() != project.id()) {
      throw new RoundhouseException.Forbidden("other_project",
          "the agent of task " + actor.taskId() + " may only use the services of its own project, not " + project.name());
    }
    return project;
  }

  private static void refuseAgent(Actor actor, String what) {
    if (actor.isAgent()) {
      throw new RoundhouseException.Forbidden("agent_refused",
          "an agent may not " + what + " services (a declared command runs again at every boot); ask the user to");
    }
  }

  private ProjectServices existing(Project project, String service) {
    ProjectServices target = services.of(project);
    if (target.declared(service).isEmpty()) {
      throw new RoundhouseException.NotFound("no service " + service + " in project " + project.name()
          + "; service_list shows what it declares");
    }
    return target;
  }

  static Definition view(Project project, ServiceRecords.StoredDefinition stored) {
    ServiceDefinition definition = stored.definition();
    return new Definition(project.name(), definition.name(), definition.shell(),
        definition.argv().isEmpty() ? null : definition.argv(),
        stored.cwd() == null && stored.task() == null ? null : definition.cwd(), stored.task(),
        definition.env().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).sorted().toList(),
        definition.kind(), ServicesApi.Restart.of(definition.restart()), ServicesApi.Ready.of(definition.readiness()),
        definition.dependsOn());
  }

  private static Map<String, String> environment(List<String> assignments) {
    Map<String, String> env = new LinkedHashMap<>();
    for (String assignment : assignments == null ? List.<String>of() : assignments) {
      int equals = assignment.indexOf('=');
      if (equals <= 0) {
        throw new RoundhouseException.InvalidInput("env entry '" + assignment + "' is not NAME=value");
      }
      env.put(assignment.substring(0, equals), assignment.substring(equals + 1));
    }
    return env;
  }

  /** Runs an engine call, its errors as the hub's. */
  private static <T> T engine(Supplier<T> call) {
    try {
      return call.get();
    } catch (ServiceException.PortInUse e) {
      throw new RoundhouseException.Conflict(e.getMessage());
    } catch (ServiceException e) {
      if (e.getMessage().startsWith("no service ")) {
        throw new RoundhouseException.NotFound(e.getMessage());
      }
      throw new RoundhouseException.Conflict(e.getMessage());
    }
  }
}
