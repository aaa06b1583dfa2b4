package dev.roundhouse.services;

import com.pty4j.PtyProcess;
import com.pty4j.PtyProcessBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link Terminals}: opens PTY sessions, records each one's process group in the journal, and forgets
 * a session once its program ended. Thread-safe (a concurrent map; no lock of its own).
 */
final class RealTerminals implements Terminals {
  private final Scheduler scheduler;
  private final ProcessJournal journal;
  private final Duration reattachGrace;
  private final int scrollbackBytes;
  private final Duration hangupGrace;
  private final ConcurrentHashMap<String, PtyTerminal> sessions = new ConcurrentHashMap<>();

  RealTerminals(Scheduler scheduler, ProcessJournal journal, Duration reattachGrace, int scrollbackBytes,
      Duration hangupGrace) {
    this.scheduler = scheduler;
    this.journal = journal;
    this.reattachGrace = reattachGrace;
    this.scrollbackBytes = scrollbackBytes;
    this.hangupGrace = hangupGrace;
  }

  @Override
  public TerminalSession open(TerminalSpec spec) {
    if (!Files.isDirectory(Path.of(spec.cwd()))) {
      throw new ServiceException("the terminal's working directory " + spec.cwd() + " does not exist");
    }
    String id = UUID.randomUUID().toString();
    Map<String, String> env = new HashMap<>(System.getenv());
    env.putIfAbsent("TERM", "xterm-256color");
    env.putAll(spec.env());
    env.put(ProcessGroup.RUN_VARIABLE, id);
    List<String> command = spec.command().isEmpty() ? defaultShell() : spec.command();
    PtyProcess process;
    try {
      process = new PtyProcessBuilder(command.toArray(String[]::new))
          .setDirectory(spec.cwd())
          .setEnvironment(env)
          .setInitialColumns(spec.columns())
          .setInitialRows(spec.rows())
          .setRedirectErrorStream(true)
          .start();
    } catch (IOException | RuntimeException e) {
      throw new ServiceException("cannot open a terminal running " + String.join(" ", command) + ": "
          + e.getMessage(), e);
    }
    long pid = process.pid();
    ProcessRecord record = new ProcessRecord("terminal:" + id, pid, pid,
        ProcFs.stat(pid).map(ProcFs.Stat::startTicks).orElse(0L), ProcFs.bootId(), ProcFs.cmdline(pid), id,
        Clock.systemUTC().instant());
    journal.recorded(record);
    PtyTerminal terminal = new PtyTerminal(id, process, record, this, scrollbackBytes);
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
    journal.erased(terminal.record());
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

  private static List<String> defaultShell() {
    String shell = System.getenv("SHELL");
    for (String candidate : new String[] {shell, "/bin/bash", "/bin/sh"}) {
      if (candidate != null && Files.isExecutable(Path.of(candidate))) {
        return List.of(candidate, "-i");
      }
    }
    throw new ServiceException("no shell found for a terminal ($SHELL, /bin/bash and /bin/sh are missing)");
  }
}
