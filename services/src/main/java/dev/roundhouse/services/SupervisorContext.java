package dev.roundhouse.services;

import dev.roundhouse.hub.process.ProcessJournal;
import dev.roundhouse.hub.process.ProcessGroup;
import dev.roundhouse.hub.process.ProcessScopes;

import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What every managed service of one supervisor shares: the project's ports, the clock and scheduler, where
 * processes start (the hub's containment) and the journal, the limits, and where status changes and log lines go. Immutable; thread-safe (the listener list
 * is a copy-on-write list).
 */
record SupervisorContext(
    String project,
    int port,
    Map<String, Integer> extraPorts,
    Map<String, String> baseEnv,
    Clock clock,
    Scheduler scheduler,
    ProcessScopes processes,
    ProcessJournal journal,
    Duration stopGrace,
    int logLines,
    long logChars,
    int maxLineBytes,
    Consumer<ServiceState> publish,
    List<LogListener> logListeners) {

  /** The service's environment: the base, then PORT and the extra ports, then the definition's own. */
  Map<String, String> environment(ServiceDefinition definition) {
    Map<String, String> env = new HashMap<>(baseEnv);
    env.put("PORT", Integer.toString(port));
    extraPorts.forEach((name, value) -> env.put(name, Integer.toString(value)));
    env.putAll(definition.env());
    env.remove(ProcessGroup.RUN_VARIABLE);
    return env;
  }

  /** The port a readiness check waits for, or null. */
  Integer readinessPort(ServiceDefinition definition) {
    Readiness readiness = definition.readiness();
    if (readiness.check() != Readiness.Check.PORT) {
      return null;
    }
    return readiness.port() == 0 ? port : readiness.port();
  }
}
