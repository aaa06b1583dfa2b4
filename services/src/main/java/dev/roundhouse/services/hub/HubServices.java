package dev.roundhouse.services.hub;

import dev.roundhouse.hub.api.BoardApi;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.events.EventDraft;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.spi.ExtensionContext;
import dev.roundhouse.hub.process.ProcessReaper;
import dev.roundhouse.hub.process.ProcessRecord;
import dev.roundhouse.hub.process.ReapResult;
import dev.roundhouse.services.RestartPolicy;
import dev.roundhouse.services.ServiceException;
import dev.roundhouse.services.ServiceSupervisor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The services of every project, as the hub sees them: a {@link ProjectServices} per project, created on first
 * use from what is stored; the project's ports; and what a boot does about the previous run (reap what is left
 * of its process groups, then restore the services that were running, as their policy says).
 *
 * <p>Thread-safe: projects live in a concurrent map, created outside any lock (two racing creations keep one
 * and close the other, which has started nothing).
 */
final class HubServices implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HubServices.class);

  /** The payload of {@code services.recovered}. */
  record Recovered(List<ReapResult> reaped, List<String> restored, List<String> leftStopped) {}

  private final ExtensionContext context;
  private final ServicesSettings settings;
  private final ServiceRecords records;
  private final ProjectPorts ports;
  private final LogChanges changes;
  private final ConcurrentHashMap<Long, ProjectServices> projects = new ConcurrentHashMap<>();
  private volatile boolean closed;

  HubServices(ExtensionContext context, ServicesSettings settings, ServiceRecords records, LogChanges changes) {
    this.context = context;
    this.settings = settings;
    this.records = records;
    this.ports = new ProjectPorts(settings.ports(), records);
    this.changes = changes;
  }

  ServiceRecords records() {
    return records;
  }

  ProjectPorts ports() {
    return ports;
  }

  ServicesSettings settings() {
    return settings;
  }

  ExtensionContext context() {
    return context;
  }

  /** The project named by id or name. @throws RoundhouseException.NotFound when there is none */
  Project project(String reference) {
    return context.operations().call("project_get", Actor.USER, new BoardApi.ProjectRef(reference), Project.class);
  }

  Project project(long id) {
    return project(String.valueOf(id));
  }

  Task task(long id) {
    return context.operations().call("task_get", Actor.USER, new BoardApi.TaskRef(id), Task.class);
  }

  /** The project's services, created from what is stored on first use. */
  ProjectServices of(Project project) {
    ProjectServices existing = projects.get(project.id());
    if (existing != null) {
      return existing;
    }
    if (closed) {
      throw new RoundhouseException("store_closed", "the hub is shutting down; its services are stopping");
    }
    int port = ports.portOf(project);
    ServiceSupervisor supervisor = ServiceSupervisor.builder(project.name(), port)
        .extraPorts(ports.extraPorts(port))
        .baseEnv(settings.baseEnv())
        .clock(context.clock())
        .scheduler(settings.scheduler())
        .processes(context.processes())
        .journal(records.journal(project.id()))
        .stopGrace(settings.stopGrace())
        .logLimits(settings.logLines(), settings.logChars(), settings.maxLineBytes())
        .build();
    ProjectServices created = new ProjectServices(project, supervisor, records.definitions(project.id()),
        context::append, changes);
    ProjectServices raced = projects.putIfAbsent(project.id(), created);
    if (raced != null) {
      created.close();
      return raced;
    }
    return created;
  }

  /** The project's services if they were created, by project id. */
  Optional<ProjectServices> existing(long projectId) {
    return Optional.ofNullable(projects.get(projectId));
  }

  /**
   * What a boot does: ends every process group the previous run left (a stored record whose leader is still
   * that process, or processes carrying its run marker; never a recycled pid), then starts again each service
   * that was asked to run and not stopped on request, unless its restart policy is {@code never}.
   */
  void recover() {
    List<ServiceRecords.StoredProcess> leftovers = records.processes();
    List<ReapResult> reaped = leftovers.isEmpty() ? List.of()
        : ProcessReaper.reap(leftovers.stream().map(ServiceRecords.StoredProcess::process).toList(), settings.stopGrace());
    for (ServiceRecords.StoredProcess leftover : leftovers) {
      records.forgetProcess(leftover.process());
    }
    List<String> restored = new ArrayList<>();
    List<String> leftStopped = new ArrayList<>();
    for (ServiceRecords.Wanted wanted : records.wanted()) {
      String label = wanted.service() + " (project " + wanted.projectId() + ")";
      try {
        Project project = project(wanted.projectId());
        ProjectServices services = of(project);
        Optional<ServiceRecords.StoredDefinition> stored = services.declared(wanted.service());
        if (stored.isEmpty()) {
          records.unwant(wanted.projectId(), wanted.service());
          continue;
        }
        label = wanted.service() + " (project " + project.name() + ")";
        if (stored.get().definition().restart().mode() == RestartPolicy.Mode.NEVER) {
          records.unwant(wanted.projectId(), wanted.service());
          leftStopped.add(label);
          continue;
        }
        services.actingFor(wanted.service(), Actor.SCHEDULER);
        services.supervisor().start(wanted.service());
        restored.add(label);
      } catch (RoundhouseException | ServiceException e) {
        LOG.warn("could not restore service {}: {}", label, e.getMessage());
        leftStopped.add(label + ": " + e.getMessage());
      }
    }
    if (!reaped.isEmpty() || !restored.isEmpty() || !leftStopped.isEmpty()) {
      context.append(new EventDraft("services.recovered", Actor.SCHEDULER, null, null,
          Json.tree(new Recovered(reaped, restored, leftStopped))));
    }
  }

  /** Process records alive now, for diagnostics. */
  List<ProcessRecord> processes() {
    return records.processes().stream().map(ServiceRecords.StoredProcess::process).toList();
  }

  /** Stops every project's services in parallel; their wishes stay stored for the next boot. */
  @Override
  public void close() {
    closed = true;
    List<Thread> stops = new ArrayList<>();
    for (ProjectServices services : projects.values()) {
      stops.add(Thread.ofVirtual().name("services-close-" + services.projectName()).start(services::close));
    }
    for (Thread stop : stops) {
      try {
        stop.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    projects.clear();
  }

  Map<Long, ProjectServices> all() {
    return Map.copyOf(projects);
  }
}
