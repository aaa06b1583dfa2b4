package dev.roundhouse.drivers.claude;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.drivers.process.AgentProcess;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.spi.PermissionRequest;
import dev.roundhouse.hub.spi.PermissionVerdict;
import dev.roundhouse.hub.spi.TurnContext;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.spi.TurnStoppedException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code claude} process in the bidirectional {@code stream-json} mode: a session that answers one user
 * message after another on the same stdin, asks the hub's gate about every tool use, and ends when its
 * stdin closes.
 *
 * <p>Stopping: {@link #stop} (any thread) sends the CLI an {@code interrupt} and wakes the session's
 * thread, which gives the CLI {@code stopGrace} to end the interrupted answer and exit after its stdin
 * closes, and only then kills its process group. Nothing is emitted once the turn is stopped.
 *
 * <p>Threads: the turn's thread runs {@link #answer} and {@link #end} and is the only one that calls the
 * {@link TurnContext} (emits, the gate, questions); {@link #stop} may run on any thread (it only writes the
 * interrupt and puts a stop in the inbox); the process's stdout reader (a virtual thread) only fills the
 * {@link Inbox}, stamping each line. No lock of this class exists; stdin lines are serialised by {@link
 * AgentProcess#send}. Thread-safe in that sense.
 */
final class ClaudeSession implements StreamMapper.Sink, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ClaudeSession.class);
  private static final Duration REAP_GRACE = Duration.ofMillis(500);

  /** Sees each event right after the context took it, with when its line was read (benchmarks). */
  @FunctionalInterface
  interface EmitObserver {
    EmitObserver NONE = (readAt, event) -> {};

    void emitted(long lineReadAt, TurnEvent event);
  }

  private final AgentProcess process;
  private final TurnContext context;
  private final long turnId;
  private final Duration stopGrace;
  private final EmitObserver observer;
  private final Inbox inbox = new Inbox();
  private final StreamMapper mapper = new StreamMapper();
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final AtomicInteger interrupts = new AtomicInteger();
  private volatile boolean answering;
  private volatile boolean ended;
  private StreamMapper.Ending ending;
  private int resultsAtSend;
  private long lineReadAt;

  private ClaudeSession(AgentProcess process, TurnContext context, long turnId, Duration stopGrace, EmitObserver observer) {
    this.process = process;
    this.context = context;
    this.turnId = turnId;
    this.stopGrace = stopGrace;
    this.observer = observer;
  }

  /**
   * Starts the CLI; its output is read at once.
   *
   * @throws RoundhouseException naming the program when it cannot be started
   */
  static ClaudeSession start(
      List<String> commandLine, Path directory, Map<String, String> environment, TurnContext context, long turnId,
      Duration stopGrace, EmitObserver observer) {
    AgentProcess process;
    try {
      process = AgentProcess.start("claude", commandLine, directory, environment, context.processes());
    } catch (IOException e) {
      throw new RoundhouseException("agent_not_started", e.getMessage()
          + " (install Claude Code with `npm install -g @anthropic-ai/claude-code`, or configure the path of its `claude` program)", e);
    }
    ClaudeSession session = new ClaudeSession(process, context, turnId, stopGrace, observer);
    process.readLines(session.inbox::line, session.inbox::end);
    return session;
  }

  /** The session id the CLI reported, or null before its {@code init}. */
  String sessionId() {
    return mapper.sessionId();
  }

  StreamMapper mapper() {
    return mapper;
  }

  long pid() {
    return process.pid();
  }

  long residentKib() {
    return process.residentKib();
  }

  /**
   * Sends {@code message} and handles the CLI's output until it has answered: emits the turn events, asks
   * the gate about every tool use and sends the verdict back.
   *
   * @return how the answer ended (it may have failed, or found the session to resume gone)
   * @throws TurnStoppedException when the turn was stopped meanwhile (the CLI has been wound down)
   * @throws RoundhouseException when the CLI exited without finishing the answer
   */
  StreamMapper.Ending answer(String message) throws InterruptedException {
    ending = null;
    resultsAtSend = mapper.results();
    answering = true;
    try {
      trySend(ControlMessages.userMessage(message)); // a CLI that already exited shows as the inbox's end
      while (ending == null) {
        Inbox.Item item;
        try {
          item = inbox.take();
        } catch (InterruptedException e) {
          if (stopping.get() || context.isStopped()) {
            throw stopped();
          }
          throw e;
        }
        switch (item) {
          case Inbox.Line line -> {
            lineReadAt = line.readAt();
            try {
              mapper.accept(line.text(), this);
            } catch (TurnStoppedException e) {
              throw stopped();
            }
          }
          case Inbox.End end -> {
            ended = true;
            if (stopping.get() || context.isStopped()) {
              throw stopped();
            }
            throw exitedEarly();
          }
          case Inbox.Stop stop -> throw stopped();
        }
      }
      return ending;
    } finally {
      answering = false;
    }
  }

  /**
   * Stops the session from any thread: an interrupt for the answer in progress, then the session's thread
   * winds the CLI down (see the class comment). Idempotent.
   */
  void stop() {
    if (!stopping.compareAndSet(false, true)) {
      return;
    }
    if (answering && !ended) {
      trySend(ControlMessages.interrupt("roundhouse-interrupt-" + interrupts.incrementAndGet()));
    }
    inbox.stop();
  }

  /**
   * Ends the session: closes stdin (the CLI saves the session and exits), waits up to {@code stopGrace} for
   * it to exit, then kills whatever is left of its process group. Idempotent; never throws.
   *
   * @return the exit code, or empty when it had to be killed
   */
  OptionalInt end() {
    if (!closed.compareAndSet(false, true)) {
      return OptionalInt.empty();
    }
    process.closeStdin();
    OptionalInt code = OptionalInt.empty();
    boolean interrupted = Thread.interrupted();
    try {
      code = process.awaitExit(stopGrace);
      if (code.isEmpty()) {
        LOG.warn("claude (pid {}) did not exit within {} s of its session ending; killing its process group", process.pid(), stopGrace.toSeconds());
      }
    } catch (InterruptedException e) {
      interrupted = true;
    } finally {
      process.terminate(REAP_GRACE);
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    return code;
  }

  @Override
  public void close() {
    end();
  }

  // ---- the sink: called on the session's thread, from mapper.accept ----

  @Override
  public void emit(TurnEvent event) {
    if (stopping.get()) {
      return;
    }
    context.emit(event);
    observer.emitted(lineReadAt, event);
  }

  @Override
  public void permission(String requestId, PermissionRequest request) {
    if (UserQuestions.isQuestion(request.tool(), request.input())) {
      Optional<JsonNode> answered = stopping.get() ? Optional.empty() : UserQuestions.ask(request.input(), context);
      trySend(answered.isPresent()
          ? ControlMessages.allow(requestId, answered.get())
          : ControlMessages.deny(requestId, "The user gave no answer" + (stopping.get() ? ": the turn was stopped" : "")));
      return;
    }
    PermissionVerdict verdict = stopping.get() ? PermissionVerdict.deny("the turn was stopped") : context.requestPermission(request);
    trySend(verdict.allowed()
        ? ControlMessages.allow(requestId, request.input())
        : ControlMessages.deny(requestId, "Roundhouse denied " + request.tool() + ": " + verdict.reason()));
  }

  @Override
  public void unsupportedControl(String requestId, String subtype) {
    LOG.debug("claude sent a control request of subtype {}; refused", subtype);
    trySend(ControlMessages.unsupported(requestId, subtype));
  }

  @Override
  public void ended(StreamMapper.Ending result) {
    this.ending = result;
  }

  // ---- stopping ----

  /**
   * Winds the CLI down after a stop: up to {@code stopGrace} for it to end the interrupted answer (its
   * {@code result}), then {@link #end}. Returns the exception that ends the turn as stopped.
   */
  private TurnStoppedException stopped() {
    stopping.set(true);
    boolean interrupted = Thread.interrupted(); // the runner interrupts the driver's thread on stop
    if (interrupts.get() == 0 && !ended) {
      trySend(ControlMessages.interrupt("roundhouse-interrupt-" + interrupts.incrementAndGet()));
    }
    long deadline = System.nanoTime() + stopGrace.toNanos();
    StreamMapper.Sink discard = new Discard();
    try {
      while (!ended && mapper.results() == resultsAtSend) {
        Inbox.Item item = inbox.poll(Duration.ofNanos(deadline - System.nanoTime()));
        if (item == null) {
          LOG.warn("claude (pid {}) did not end its answer within {} s of an interrupt; killing it", process.pid(), stopGrace.toSeconds());
          break;
        }
        if (item instanceof Inbox.End) {
          ended = true;
        } else if (item instanceof Inbox.Line line) {
          mapper.accept(line.text(), discard);
        }
      }
    } catch (InterruptedException e) {
      interrupted = true;
    }
    end();
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return new TurnStoppedException(turnId);
  }

  /** While winding down: nothing is emitted, every tool use is refused. */
  private final class Discard implements StreamMapper.Sink {
    @Override
    public void emit(TurnEvent event) {}

    @Override
    public void permission(String requestId, PermissionRequest request) {
      ClaudeSession.this.permission(requestId, request);
    }

    @Override
    public void unsupportedControl(String requestId, String subtype) {
      ClaudeSession.this.unsupportedControl(requestId, subtype);
    }

    @Override
    public void ended(StreamMapper.Ending result) {
      ending = result;
    }
  }

  private RoundhouseException exitedEarly() {
    OptionalInt code = OptionalInt.empty();
    try {
      code = process.awaitExit(stopGrace);
      process.awaitStderr(Duration.ofSeconds(2));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    String stderr = process.stderrTail().strip();
    String how = code.isPresent() ? "exited with code " + code.getAsInt() : "closed its output";
    return new RoundhouseException("agent_exited", "Claude Code " + how + " before finishing its answer"
        + (stderr.isEmpty() ? " (it wrote nothing on stderr)" : ": " + stderr));
  }

  /** Writes a line on stdin, ignoring a CLI that already exited (the inbox's end reports that). */
  private void trySend(String line) {
    try {
      process.send(line);
    } catch (UncheckedIOException e) {
      // it exited
    }
  }
}
