package dev.roundhouse.services;

import dev.roundhouse.hub.process.ProcessJournal;
import dev.roundhouse.hub.process.ProcessScopes;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The terminal sessions of a hub. Implementations are thread-safe. */
public interface Terminals extends AutoCloseable {
  TerminalSession open(TerminalSpec spec);

  /** A session that is still open (a reattach within the grace period). */
  Optional<TerminalSession> find(String id);

  List<TerminalSession> list();

  /** Hangs up every session. */
  @Override
  void close();

  /**
   * As {@link #create(ProcessScopes, Scheduler, ProcessJournal, Duration, int, Duration, Map)}, in this JVM's own
   * containment and environment.
   */
  static Terminals create(Scheduler scheduler, ProcessJournal journal, Duration reattachGrace, int scrollbackBytes,
      Duration hangupGrace) {
    return create(StandaloneProcesses.scopes(), scheduler, journal, reattachGrace, scrollbackBytes, hangupGrace,
        System.getenv());
  }

  /**
   * @param processes where each session's shell starts (the hub's containment): a cgroup, a parent-death signal
   *     and the markers, as for a service
   * @param reattachGrace how long a session with no viewer lives
   * @param scrollbackBytes how much recent output is kept for a reattach
   * @param hangupGrace how long the group has after SIGHUP before SIGKILL
   * @param baseEnv the environment each session starts from (its spec's entries go over it); its {@code SHELL}
   *     and {@code HOME} pick the default shell and the startup files it reads
   */
  static Terminals create(ProcessScopes processes, Scheduler scheduler, ProcessJournal journal, Duration reattachGrace,
      int scrollbackBytes, Duration hangupGrace, Map<String, String> baseEnv) {
    return new RealTerminals(processes, scheduler, journal, reattachGrace, scrollbackBytes, hangupGrace, baseEnv);
  }
}
