package dev.roundhouse.services;

import dev.roundhouse.hub.process.ProcessJournal;
import dev.roundhouse.hub.process.ProcessScope;
import dev.roundhouse.hub.process.ProcessScopes;

import com.pty4j.PtyProcess;
import com.pty4j.PtyProcessBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link Terminals}: opens PTY sessions, each in a {@link ProcessScope} of its own (the shell joins the scope's
 * cgroup, gets the parent-death signal and the markers, and its group is journaled), and forgets a session once its
 * program ended. Thread-safe (a concurrent map; no lock of its own).
 */
final class RealTerminals implements Terminals {
  private final ProcessScopes processes;
  private final Scheduler scheduler;
  private final ProcessJournal journal;
  private final Duration reattachGrace;
  private final int scrollbackBytes;
  private final Duration hangupGrace;
  private final Map<String, String> baseEnv;
  private final ConcurrentHashMap<String, PtyTerminal> sessions = new ConcurrentHashMap<>();

  RealTerminals(ProcessScopes processes, Scheduler scheduler, ProcessJournal journal, Duration reattachGrace,
      int scrollbackBytes, Duration hangupGrace, Map<String, String> baseEnv) {
    this.processes = processes;
    this.scheduler = scheduler;
    this.journal = journal;
    this.reattachGrace = reattachGrace;
    this.scrollbackBytes = scrollbackBytes;
    this.hangupGrace = hangupGrace;
    this.baseEnv = Map.copyOf(baseEnv);
  }

  @Override
  public TerminalSession open(TerminalSpec spec) {
    if (!Files.isDirectory(Path.of(spec.cwd()))) {
      throw new ServiceException("the terminal's working directory " + spec.cwd() + " does not exist");
    }
    String id = UUID.randomUUID().toString();
    Map<String, String> env = new HashMap<>(baseEnv);
    env.putIfAbsent("TERM", "xterm-256color");
    env.putAll(spec.env());
    List<String> command = spec.command().isEmpty() ? defaultShell(baseEnv.get("SHELL")) : spec.command();
    ProcessScope scope = processes.open("terminal:" + id, journal);
    PtyProcess process;
    try {
      // pty4j forks in native code on the calling thread, which the scope makes its long-lived spawner thread.
      process = scope.startSessionLeader(command, (wrapped, markers) -> {
        env.putAll(markers);
        return new PtyProcessBuilder(wrapped.toArray(String[]::new))
            .setDirectory(spec.cwd())
            .setEnvironment(env)
            .setInitialColumns(spec.columns())
            .setInitialRows(spec.rows())
            .setRedirectErrorStream(true)
            .start();
      });
    } catch (IOException | RuntimeException e) {
      scope.close();
      throw new ServiceException("cannot open a terminal running " + String.join(" ", command) + ": "
          + e.getMessage(), e);
    }
    PtyTerminal terminal = new PtyTerminal(id, spec, process, scope, this, scrollbackBytes);
    sessions.put(id, terminal);
    if (terminal.exitCode().isPresent()) {
      sessions.remove(id);
    }
    return terminal;
  }

  @Override
  public Optional<TerminalSession> find(String id) {
    return Optional.ofNullable(sessions.get(id));
  }

  @Override
  public List<TerminalSession> list() {
    return new ArrayList<>(sessions.values());
  }

  @Override
  public void close() {
    List<Thread> closing = new ArrayList<>();
    for (PtyTerminal terminal : sessions.values()) {
      closing.add(Thread.ofVirtual().name("terminal-close").start(terminal::close));
    }
    for (Thread thread : closing) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  void ended(PtyTerminal terminal) {
    sessions.remove(terminal.id(), terminal);
  }

  Scheduler scheduler() {
    return scheduler;
  }

  Duration reattachGrace() {
    return reattachGrace;
  }

  Duration hangupGrace() {
    return hangupGrace;
  }

  private static List<String> defaultShell(String shell) {
    for (String candidate : new String[] {shell, "/bin/bash", "/bin/sh"}) {
      if (candidate != null && Files.isExecutable(Path.of(candidate))) {
        return List.of(candidate, "-i");
      }
    }
    throw new ServiceException("no shell found for a terminal ($SHELL, /bin/bash and /bin/sh are missing)");
  }
}
