package dev.roundhouse.services;

import dev.roundhouse.hub.process.ProcessRecord;
import dev.roundhouse.hub.process.ProcessJournal;
import dev.roundhouse.hub.process.ProcessScopes;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs one project's services: each in a process group of its own, started after what it depends on,
 * restarted as its policy says, its output kept in a bounded log. Every method is a thin call for one hub
 * operation (service_list, service_start, …). Unknown names throw a {@link ServiceException} naming them.
 *
 * <p>Implementations are thread-safe; listeners are never called under a lock.
 */
public interface ServiceSupervisor extends AutoCloseable {
  String project();

  /** The project's {@code PORT}, given to every service. */
  int port();

  /** Adds or replaces a definition; a running service keeps running and uses the new one from its next start. */
  ServiceState define(ServiceDefinition definition);

  /** Removes a stopped service that nothing depends on. */
  void remove(String name);

  List<ServiceDefinition> definitions();

  /** Every service, by name. */
  List<ServiceState> list();

  ServiceState state(String name);

  /**
   * Starts a service after its dependencies (setup services run to a clean exit, the others become ready)
   * and returns at once with its status starting; {@link #await} waits for an outcome. Idempotent while it
   * runs.
   *
   * @throws ServiceException.PortInUse when its port is held (checked again just before the spawn)
   */
  ServiceState start(String name);

  /** Starts every setup and dev service in dependency order (test and custom services start on request). */
  List<ServiceState> startAll();

  /** Stops a service: SIGTERM to its group, SIGKILL after the grace period; returns once none is left. */
  ServiceState stop(String name);

  ServiceState restart(String name);

  /**
   * Waits until the service is in one of {@code statuses}.
   *
   * @throws ServiceException naming the service, the statuses and the one it is in, on timeout
   */
  ServiceState await(String name, Set<ServiceStatus> statuses, Duration timeout);

  /** Up to {@code max} lines from {@code from} (negative: that many back from the end), without waiting. */
  LogChunk logs(String name, long from, int max);

  /** Like {@link #logs}, but waits up to {@code wait} for a first line when none is there yet. */
  LogChunk follow(String name, long from, int max, Duration wait) throws InterruptedException;

  Subscription onStatus(StatusListener listener);

  Subscription onLog(LogListener listener);

  /** The records of the process groups running now (the journal has them too). */
  List<ProcessRecord> processes();

  /** Stops every service (in parallel) and releases the supervisor's thread. */
  @Override
  void close();

  static Builder builder(String project, int port) {
    return new Builder(project, port);
  }

  /** Configures a supervisor. Not thread-safe; build once. */
  final class Builder {
    final String project;
    final int port;
    Map<String, Integer> extraPorts = Map.of();
    Map<String, String> baseEnv = System.getenv();
    Clock clock = Clock.systemUTC();
    Scheduler scheduler = Scheduler.system();
    ProcessJournal journal = ProcessJournal.inMemory();
    ProcessScopes processes;
    Duration stopGrace = Duration.ofSeconds(5);
    int logLines = 5_000;
    long logChars = 2_000_000;
    int maxLineBytes = 8_192;

    Builder(String project, int port) {
      this.project = project;
      this.port = port;
    }

    /** Extra ports by variable name ({@code PORT_1} → 21041), put in every service's environment. */
    public Builder extraPorts(Map<String, Integer> ports) {
      this.extraPorts = Map.copyOf(ports);
      return this;
    }

    /** The environment services start from (default: the hub's own). */
    public Builder baseEnv(Map<String, String> env) {
      this.baseEnv = Map.copyOf(env);
      return this;
    }

    public Builder clock(Clock value) {
      this.clock = value;
      return this;
    }

    public Builder scheduler(Scheduler value) {
      this.scheduler = value;
      return this;
    }

    /**
     * Where each run's processes start: the hub's containment ({@code ExtensionContext.processes()}); by default one
     * this JVM probes for itself (see {@code StandaloneProcesses}).
     */
    public Builder processes(ProcessScopes value) {
      this.processes = value;
      return this;
    }

    public Builder journal(ProcessJournal value) {
      this.journal = value;
      return this;
    }

    /** How long SIGTERM is given before SIGKILL (default 5 s). */
    public Builder stopGrace(Duration value) {
      this.stopGrace = value;
      return this;
    }

    /** The bounds of each service's log (default 5,000 lines, 2,000,000 characters, lines cut at 8 KiB). */
    public Builder logLimits(int lines, long chars, int lineBytes) {
      this.logLines = lines;
      this.logChars = chars;
      this.maxLineBytes = lineBytes;
      return this;
    }

    public ServiceSupervisor build() {
      return new RealSupervisor(this);
    }
  }
}
