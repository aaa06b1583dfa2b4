package dev.roundhouse.services;

import dev.roundhouse.hub.process.ProcessException;
import dev.roundhouse.hub.process.ProcessRecord;
import dev.roundhouse.hub.process.ProcessScope;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One service's state machine (see {@link ServiceStatus}). A generation number, bumped by every start and
 * stop, lets work that was scheduled for an older request (a backoff restart, a dependency wait, a spawn
 * in flight) notice it is stale and do nothing.
 *
 * <p>Thread-safe. One lock guards the fields below; it is held only to read or change them (and to
 * schedule or cancel a timer). Spawning, signalling, the journal, readiness probes and publishing all
 * happen after it is released.
 */
final class ManagedService {
  private static final Logger LOG = LoggerFactory.getLogger(ManagedService.class);

  private final String name;
  private final SupervisorContext context;
  private final ServiceOutput output;
  private final ReentrantLock lock = new ReentrantLock();
  private ServiceDefinition definition;
  private ServiceStatus status = ServiceStatus.STOPPED;
  private ServiceRun run;
  private Integer exitCode;
  private int restarts;
  private int consecutiveFailures;
  private String message;
  private Instant since;
  private long version;
  private long generation;
  private Subscription pendingRestart;

  ManagedService(ServiceDefinition definition, SupervisorContext context) {
    this.name = definition.name();
    this.definition = definition;
    this.context = context;
    this.output = new ServiceOutput(name, context);
    this.since = context.clock().instant();
  }

  LogBuffer log() {
    return output.log();
  }

  ServiceDefinition definition() {
    return locked(() -> definition);
  }

  ServiceState snapshot() {
    return locked(this::snapshotLocked);
  }

  ProcessRecord record() {
    return locked(() -> run == null ? null : run.record);
  }

  void redefine(ServiceDefinition newDefinition) {
    ServiceState state = locked(() -> {
      definition = newDefinition;
      return status.active() ? transitionLocked(status, "definition updated; it takes effect on the next start") : null;
    });
    publish(state);
  }

  /** Marks the service as starting (waiting for {@code why}); the new generation, or -1 when already active. */
  long beginStart(String why) {
    long[] started = {-1};
    ServiceState state = locked(() -> {
      if (status.active()) {
        return null;
      }
      cancelRestartLocked();
      started[0] = ++generation;
      restarts = 0;
      consecutiveFailures = 0;
      exitCode = null;
      return transitionLocked(ServiceStatus.STARTING, why);
    });
    publish(state);
    return started[0];
  }

  /** Fails a start of generation {@code gen} (a dependency failed, the port is taken). */
  void fail(long gen, String why) {
    publish(locked(() -> gen == generation && status == ServiceStatus.STARTING
        ? transitionLocked(ServiceStatus.FAILED, why) : null));
  }

  boolean current(long gen) {
    return locked(() -> gen == generation);
  }

  /** Spawns the run of generation {@code gen}, if that start is still wanted. */
  void launch(long gen) {
    ServiceDefinition def = locked(() -> gen == generation && status == ServiceStatus.STARTING ? definition : null);
    if (def == null) {
      return;
    }
    ServiceRun newRun;
    try {
      Integer port = context.readinessPort(def);
      if (port != null) {
        PortProbe.requireFree(port, "service " + name);
      }
      newRun = spawn(def);
    } catch (ServiceException | ProcessException e) {
      fail(gen, e.getMessage());
      return;
    }
    boolean noCheck = def.readiness().check() == Readiness.Check.NONE;
    ServiceState state = locked(() -> {
      if (gen != generation) {
        return null;
      }
      run = newRun;
      newRun.ready = noCheck;
      if (!noCheck) {
        newRun.readinessTimer = context.scheduler().schedule(def.readiness().timeout(), () -> notReady(newRun));
      }
      return transitionLocked(noCheck ? ServiceStatus.READY : ServiceStatus.STARTING,
          noCheck ? "running" : "started; waiting until it is ready");
    });
    if (state == null) {
      newRun.group.terminate("TERM", context.stopGrace());
      newRun.scope.close();
      return;
    }
    output.read(newRun, this::markReady);
    newRun.process.onExit().thenRunAsync(() -> exited(newRun), runnable -> Thread.ofVirtual().start(runnable));
    publish(state);
    Integer port = context.readinessPort(def);
    if (port != null) {
      new PortReadiness(newRun, port, context.scheduler(), () -> markReady(newRun)).poll();
    }
  }

  /**
   * Starts a run in a scope of its own (see {@link ProcessScope}: a cgroup, a parent-death signal, the markers, a
   * journaled record), stdin /dev/null.
   */
  private ServiceRun spawn(ServiceDefinition def) {
    String owner = "service:" + name;
    if (!Files.isDirectory(Path.of(def.cwd()))) {
      throw new ServiceException("the working directory " + def.cwd() + " of " + owner + " does not exist");
    }
    Map<String, String> env = context.environment(def);
    List<String> argv = CommandLine.argv(def, env);
    ProcessBuilder builder = new ProcessBuilder(argv).directory(new File(def.cwd()))
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    builder.environment().putAll(env);
    ProcessScope scope = context.processes().open(owner, context.journal());
    try {
      Process process = scope.start(builder);
      return new ServiceRun(scope, process, context.clock().instant(),
          def.readiness().check() == Readiness.Check.LOG ? Pattern.compile(def.readiness().pattern()) : null);
    } catch (IOException | RuntimeException e) {
      scope.close();
      throw new ServiceException("cannot start " + owner + " (" + String.join(" ", argv) + "): " + e.getMessage(), e);
    }
  }

  /** Ends the current run, if any, and waits until its group is gone. */
  ServiceState stop() {
    ServiceRun[] stopping = {null};
    ServiceState state = locked(() -> {
      generation++;
      cancelRestartLocked();
      if (run == null) {
        return status == ServiceStatus.STARTING || status == ServiceStatus.BACKOFF
            ? transitionLocked(ServiceStatus.STOPPED, "stopped") : null;
      }
      stopping[0] = run;
      run.stopRequested = true;
      return transitionLocked(ServiceStatus.STOPPING, "stopping");
    });
    publish(state);
    ServiceRun current = stopping[0];
    if (current != null) {
      current.group.terminate("TERM", context.stopGrace());
      try {
        current.ended.get(context.stopGrace().toMillis() + 15_000, TimeUnit.MILLISECONDS);
      } catch (ExecutionException | TimeoutException e) {
        throw new ServiceException("service " + name + " did not finish stopping: " + e.getMessage(), e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ServiceException("interrupted while stopping service " + name, e);
      }
    }
    return snapshot();
  }

  private void markReady(ServiceRun owner) {
    publish(locked(() -> {
      if (run != owner || status != ServiceStatus.STARTING) {
        return null;
      }
      owner.ready = true;
      cancelReadinessLocked(owner);
      return transitionLocked(ServiceStatus.READY, "ready");
    }));
  }

  private void notReady(ServiceRun owner) {
    boolean timedOut = locked(() -> run == owner && status == ServiceStatus.STARTING && !owner.stopRequested);
    if (timedOut) {
      owner.notReadyInTime = true;
      owner.group.terminate("TERM", context.stopGrace());
    }
  }

  /** The leader ended: end the rest of its group, drain the output, then decide what comes next. */
  private void exited(ServiceRun ended) {
    try {
      List<Long> left = ended.group.terminate("TERM", context.stopGrace());
      if (!left.isEmpty()) {
        LOG.warn("Processes of service {} are still alive after SIGKILL: {}", name, left);
      }
      ended.joinReaders(Duration.ofSeconds(2));
      ended.scope.close(); // cgroup.kill for anything that left the group and cleared its marker; the record erased
      publish(locked(() -> afterExitLocked(ended, ended.process().exitValue())));
    } finally {
      ended.ended.complete(null);
    }
  }

  private ServiceState afterExitLocked(ServiceRun ended, int code) {
    if (run != ended) {
      return null;
    }
    run = null;
    cancelReadinessLocked(ended);
    exitCode = code;
    Duration lasted = Duration.between(ended.startedAt, context.clock().instant());
    String how = ended.notReadyInTime
        ? "not ready within " + seconds(definition.readiness().timeout())
        : "exited with code " + code;
    if (ended.stopRequested) {
      return transitionLocked(ServiceStatus.STOPPED, "stopped");
    }
    RestartPolicy policy = definition.restart();
    if (policy.restarts(ended.notReadyInTime ? null : code)) {
      consecutiveFailures = lasted.toMillis() >= policy.stableAfterMillis() ? 1 : consecutiveFailures + 1;
      Duration delay = policy.backoff(consecutiveFailures);
      long gen = generation;
      pendingRestart = context.scheduler().schedule(delay, () -> restartAfterBackoff(gen));
      return transitionLocked(ServiceStatus.BACKOFF, how + "; restarting in " + seconds(delay));
    }
    return transitionLocked(code == 0 && !ended.notReadyInTime ? ServiceStatus.EXITED : ServiceStatus.FAILED, how);
  }

  private void restartAfterBackoff(long gen) {
    ServiceState state = locked(() -> {
      if (gen != generation || status != ServiceStatus.BACKOFF) {
        return null;
      }
      pendingRestart = null;
      restarts++;
      return transitionLocked(ServiceStatus.STARTING, "restarting (restart " + restarts + ")");
    });
    if (state != null) {
      publish(state);
      launch(gen);
    }
  }

  private ServiceState transitionLocked(ServiceStatus next, String why) {
    status = next;
    message = why;
    since = context.clock().instant();
    version++;
    return snapshotLocked();
  }

  private ServiceState snapshotLocked() {
    return new ServiceState(name, definition.kind(), status, run == null ? null : run.pid(), exitCode, restarts,
        context.port(), message, since, output.log().nextOffset(), version);
  }

  private void cancelRestartLocked() {
    if (pendingRestart != null) {
      pendingRestart.close();
      pendingRestart = null;
    }
  }

  private static void cancelReadinessLocked(ServiceRun owner) {
    if (owner.readinessTimer != null) {
      owner.readinessTimer.close();
      owner.readinessTimer = null;
    }
  }

  private void publish(ServiceState state) {
    if (state != null) {
      context.publish().accept(state);
    }
  }

  private <T> T locked(Supplier<T> action) {
    lock.lock();
    try {
      return action.get();
    } finally {
      lock.unlock();
    }
  }

  private static String seconds(Duration duration) {
    long millis = duration.toMillis();
    return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
  }
}
