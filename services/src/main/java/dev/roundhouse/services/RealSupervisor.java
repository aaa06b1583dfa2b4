package dev.roundhouse.services;

import dev.roundhouse.hub.process.ProcessRecord;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The {@link ServiceSupervisor}: a sorted map of {@link ManagedService}s, the ordering of starts by
 * dependency (on one virtual thread per start), and the waiting for outcomes.
 *
 * <p>Thread-safe. Locks, in the order they may be taken: {@code watchLock} (only to wait for and signal
 * a status change), then a service's lock, then its log's lock. Status changes reach listeners through
 * {@link EventDispatcher}'s thread, never under any of these.
 */
final class RealSupervisor implements ServiceSupervisor {
  private static final Duration DEPENDENCY_WAIT = Duration.ofDays(1);

  private final SupervisorContext context;
  private final ConcurrentSkipListMap<String, ManagedService> services = new ConcurrentSkipListMap<>();
  private final EventDispatcher dispatcher;
  private final List<LogListener> logListeners = new CopyOnWriteArrayList<>();
  private final ReentrantLock watchLock = new ReentrantLock();
  private final Condition changed = watchLock.newCondition();
  private volatile boolean closed;

  RealSupervisor(Builder builder) {
    this.dispatcher = new EventDispatcher(builder.project);
    this.context = new SupervisorContext(builder.project, builder.port, builder.extraPorts, builder.baseEnv,
        builder.clock, builder.scheduler,
        builder.processes == null ? StandaloneProcesses.scopes() : builder.processes, builder.journal, builder.stopGrace, builder.logLines, builder.logChars,
        builder.maxLineBytes, this::publish, logListeners);
  }

  @Override
  public String project() {
    return context.project();
  }

  @Override
  public int port() {
    return context.port();
  }

  @Override
  public ServiceState define(ServiceDefinition definition) {
    open();
    ManagedService existing = services.putIfAbsent(definition.name(), new ManagedService(definition, context));
    if (existing != null) {
      existing.redefine(definition);
    }
    return state(definition.name());
  }

  @Override
  public void remove(String name) {
    ManagedService service = service(name);
    if (service.snapshot().status().active()) {
      throw new ServiceException("service " + name + " is running; stop it before removing it");
    }
    List<String> dependants = definitions().stream()
        .filter(definition -> definition.dependsOn().contains(name)).map(ServiceDefinition::name).toList();
    if (!dependants.isEmpty()) {
      throw new ServiceException("service " + name + " is needed by " + String.join(", ", dependants));
    }
    services.remove(name, service);
  }

  @Override
  public List<ServiceDefinition> definitions() {
    return services.values().stream().map(ManagedService::definition).toList();
  }

  @Override
  public List<ServiceState> list() {
    return services.values().stream().map(ManagedService::snapshot).toList();
  }

  @Override
  public ServiceState state(String name) {
    return service(name).snapshot();
  }

  @Override
  public ServiceState start(String name) {
    open();
    ManagedService target = service(name);
    Map<String, ServiceDefinition> definitions = new LinkedHashMap<>();
    definitions().forEach(definition -> definitions.put(definition.name(), definition));
    List<String> order = DependencyOrder.of(name, definitions);
    Integer port = context.readinessPort(target.definition());
    if (port != null && !target.snapshot().status().active()) {
      PortProbe.requireFree(port, "service " + name);
    }
    List<String> dependencies = order.subList(0, order.size() - 1);
    long generation = target.beginStart(dependencies.isEmpty() ? "starting" : "waiting for " + String.join(", ", dependencies));
    if (generation >= 0) {
      Thread.ofVirtual().name("service-" + name + "-start").start(() -> startAfter(target, generation, dependencies));
    }
    return target.snapshot();
  }

  private void startAfter(ManagedService target, long generation, List<String> dependencies) {
    for (String dependency : dependencies) {
      if (!target.current(generation)) {
        return;
      }
      String failure = ensure(dependency);
      if (failure != null) {
        target.fail(generation, "dependency " + dependency + " " + failure);
        return;
      }
    }
    target.launch(generation);
  }

  /** Brings a dependency to its goal (setup: exited cleanly; others: ready); null, or what went wrong. */
  private String ensure(String name) {
    ManagedService dependency = service(name);
    boolean setup = dependency.definition().kind() == ServiceKind.SETUP;
    ServiceStatus goal = setup ? ServiceStatus.EXITED : ServiceStatus.READY;
    if (dependency.snapshot().status() == goal) {
      return null;
    }
    long generation = dependency.beginStart("starting for a service that depends on it");
    if (generation >= 0) {
      dependency.launch(generation);
    }
    ServiceState outcome = await(name,
        setup ? Set.of(goal, ServiceStatus.FAILED, ServiceStatus.STOPPED)
            : Set.of(goal, ServiceStatus.FAILED, ServiceStatus.STOPPED, ServiceStatus.EXITED),
        DEPENDENCY_WAIT);
    return outcome.status() == goal ? null : "is " + outcome.status().name().toLowerCase() + ": " + outcome.message();
  }

  @Override
  public List<ServiceState> startAll() {
    for (ServiceDefinition definition : definitions()) {
      if (definition.kind() == ServiceKind.SETUP || definition.kind() == ServiceKind.DEV) {
        start(definition.name());
      }
    }
    return list();
  }

  @Override
  public ServiceState stop(String name) {
    return service(name).stop();
  }

  @Override
  public ServiceState restart(String name) {
    stop(name);
    return start(name);
  }

  @Override
  public ServiceState await(String name, Set<ServiceStatus> statuses, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    watchLock.lock();
    try {
      while (true) {
        ServiceState state = service(name).snapshot();
        if (statuses.contains(state.status())) {
          return state;
        }
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
          throw new ServiceException("service " + name + " did not become " + statuses + " within " + timeout
              + "; it is " + state.status() + (state.message() == null ? "" : " (" + state.message() + ")"));
        }
        changed.awaitNanos(remaining);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ServiceException("interrupted while waiting for service " + name, e);
    } finally {
      watchLock.unlock();
    }
  }

  @Override
  public LogChunk logs(String name, long from, int max) {
    return service(name).log().read(from, max);
  }

  @Override
  public LogChunk follow(String name, long from, int max, Duration wait) throws InterruptedException {
    return service(name).log().follow(from, max, wait);
  }

  @Override
  public Subscription onStatus(StatusListener listener) {
    return dispatcher.add(Objects.requireNonNull(listener));
  }

  @Override
  public Subscription onLog(LogListener listener) {
    logListeners.add(Objects.requireNonNull(listener));
    return () -> logListeners.remove(listener);
  }

  @Override
  public List<ProcessRecord> processes() {
    return services.values().stream().map(ManagedService::record).filter(Objects::nonNull).toList();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    List<Thread> stops = new ArrayList<>();
    for (ManagedService service : services.values()) {
      stops.add(Thread.ofVirtual().name("service-close").start(service::stop));
    }
    for (Thread stop : stops) {
      try {
        stop.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    dispatcher.close();
  }

  private void publish(ServiceState state) {
    dispatcher.publish(state);
    watchLock.lock();
    try {
      changed.signalAll();
    } finally {
      watchLock.unlock();
    }
  }

  private ManagedService service(String name) {
    ManagedService service = services.get(name);
    if (service == null) {
      throw new ServiceException("no service " + name + " in project " + context.project());
    }
    return service;
  }

  private void open() {
    if (closed) {
      throw new ServiceException("the services of project " + context.project() + " are shut down");
    }
  }
}
