package dev.roundhouse.services.hub;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.events.EventDraft;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.services.ServiceState;
import dev.roundhouse.services.ServiceSupervisor;
import dev.roundhouse.services.Subscription;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One project's services in the hub: its {@link ServiceSupervisor} (built with the stored definitions, the
 * project's ports and a journal in the store), what each service was declared with, and who last asked
 * each service to do something, so its status events carry that actor. Every status change is appended to
 * the hub's stream as a durable {@code service.status} event, from the supervisor's event thread.
 *
 * <p>Thread-safe: the maps are concurrent; no lock is held while calling the supervisor or the hub.
 */
final class ProjectServices implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ProjectServices.class);

  /** The payload of a {@code service.status} event. */
  record StatusEvent(String project, ServiceState service) {}

  private final long projectId;
  private final String projectName;
  private final ServiceSupervisor supervisor;
  private final Map<String, ServiceRecords.StoredDefinition> declared = new ConcurrentHashMap<>();
  private final Map<String, Actor> actors = new ConcurrentHashMap<>();
  private final Map<String, SseLines> events = new ConcurrentHashMap<>();
  private final List<Subscription> subscriptions;

  ProjectServices(Project project, ServiceSupervisor supervisor, List<ServiceRecords.StoredDefinition> definitions,
      Consumer<EventDraft> append, LogChanges changes) {
    this.projectId = project.id();
    this.projectName = project.name();
    this.supervisor = supervisor;
    for (ServiceRecords.StoredDefinition stored : definitions) {
      supervisor.define(stored.definition());
      declared.put(stored.definition().name(), stored);
    }
    this.subscriptions = List.of(
        supervisor.onStatus(state -> {
          try {
            append.accept(new EventDraft("service.status", actors.getOrDefault(state.name(), Actor.SCHEDULER), projectId,
                taskOf(state.name()), Json.tree(new StatusEvent(projectName, state))));
          } catch (RuntimeException e) {
            LOG.warn("could not record that service {} of project {} is {}", state.name(), projectName, state.status(), e);
          }
        }),
        supervisor.onLog((service, line) -> changes.logged(projectName, service)));
  }

  long projectId() {
    return projectId;
  }

  String projectName() {
    return projectName;
  }

  ServiceSupervisor supervisor() {
    return supervisor;
  }

  Optional<ServiceRecords.StoredDefinition> declared(String service) {
    return Optional.ofNullable(declared.get(service));
  }

  /** Every service declared in the project. */
  List<ServiceRecords.StoredDefinition> declaredAll() {
    return List.copyOf(declared.values());
  }

  void declare(ServiceRecords.StoredDefinition stored) {
    supervisor.define(stored.definition());
    declared.put(stored.definition().name(), stored);
  }

  void forget(String service) {
    supervisor.remove(service);
    declared.remove(service);
    actors.remove(service);
    events.remove(service);
  }

  /**
   * The SSE events of {@code service}'s recent lines, shared by its viewers (made on the first, for a log of at most
   * {@code logLines} lines).
   */
  SseLines events(String service, int logLines) {
    return events.computeIfAbsent(service, name -> new SseLines(logLines));
  }

  /** Remembers who asks {@code service} to change, for the events that follow. */
  void actingFor(String service, Actor actor) {
    actors.put(service, actor);
  }

  private Long taskOf(String service) {
    ServiceRecords.StoredDefinition stored = declared.get(service);
    return stored == null ? null : stored.task();
  }

  /** Stops every service (the stored wishes stay, so the next boot restores them) and ends the event thread. */
  @Override
  public void close() {
    supervisor.close();
    subscriptions.forEach(Subscription::close);
  }
}
