package dev.roundhouse.services;

import java.io.InputStream;
import java.time.Clock;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a service's output goes: each line into its {@link LogBuffer}, to the log listeners (on the reader
 * thread, no lock held), and to the run's log readiness check. Thread-safe: it holds no state of its own
 * beyond the thread-safe buffer and listener list.
 */
final class ServiceOutput {
  private static final Logger LOG = LoggerFactory.getLogger(ServiceOutput.class);

  private final String name;
  private final LogBuffer log;
  private final List<LogListener> listeners;
  private final Clock clock;
  private final int maxLineBytes;

  ServiceOutput(String name, SupervisorContext context) {
    this.name = name;
    this.log = new LogBuffer(name, context.logLines(), context.logChars());
    this.listeners = context.logListeners();
    this.clock = context.clock();
    this.maxLineBytes = context.maxLineBytes();
  }

  LogBuffer log() {
    return log;
  }

  /** Starts the readers of a run's stdout and stderr; {@code ready} is told when a line matches its pattern. */
  void read(ServiceRun run, Consumer<ServiceRun> ready) {
    run.startReaders(pump(run, run.process().getInputStream(), LogLine.Stream.STDOUT, ready),
        pump(run, run.process().getErrorStream(), LogLine.Stream.STDERR, ready), name);
  }

  private OutputPump pump(ServiceRun run, InputStream stream, LogLine.Stream which, Consumer<ServiceRun> ready) {
    return new OutputPump(stream, maxLineBytes, OutputPump.PARK, texts -> {
      // The lines of one read share one lock of the log, one wake of its followers and one timestamp.
      for (LogLine line : log.appendAll(which, texts, clock.instant())) {
        if (run.readyPattern != null && !run.ready && run.readyPattern.matcher(line.text()).find()) {
          ready.accept(run);
        }
        for (LogListener listener : listeners) {
          try {
            listener.line(name, line);
          } catch (RuntimeException e) {
            LOG.warn("A log listener failed on a line of service {}", name, e);
          }
        }
      }
    });
  }
}
