package dev.roundhouse.services;

import dev.roundhouse.hub.process.ProcessRecord;
import dev.roundhouse.hub.process.ProcessGroup;
import dev.roundhouse.hub.process.ProcessScope;

import com.pty4j.PtyProcess;
import com.pty4j.WinSize;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link TerminalSession} on a pty4j PTY. pty4j starts the program as a session leader with the PTY as
 * its controlling terminal, so its pid is its process group; it runs in a {@link ProcessScope} of its own (cgroup,
 * parent-death signal, markers, a journaled record) like a service's run, and close hangs the group up, then
 * closes the scope.
 *
 * <p>Thread-safe. {@code lock} guards the scrollback, the grace timer and changes of the (volatile) attachment, and is
 * never held while calling a listener. Each {@link Attachment} serialises its own deliveries (the
 * scrollback replay, then live output) with a lock of its own that guards nothing else.
 */
final class PtyTerminal implements TerminalSession {
  private static final Logger LOG = LoggerFactory.getLogger(PtyTerminal.class);

  private final String id;
  private final TerminalSpec spec;
  private final PtyProcess process;
  private final ProcessGroup group;
  private final RealTerminals owner;
  private final ReentrantLock lock = new ReentrantLock();
  private final Scrollback scrollback;
  private final ProcessRecord record;
  private final ProcessScope scope;
  private final CompletableFuture<Integer> exit = new CompletableFuture<>();
  private final Thread reader;
  private volatile Attachment attached;
  private Subscription graceTimer;
  private boolean closed;

  PtyTerminal(String id, TerminalSpec spec, PtyProcess process, ProcessScope scope, RealTerminals owner, int scrollbackBytes) {
    this.id = id;
    this.spec = spec;
    this.process = process;
    this.scope = scope;
    this.record = scope.records().getFirst();
    this.group = new ProcessGroup(record, true);
    this.owner = owner;
    this.scrollback = new Scrollback(scrollbackBytes);
    // A platform thread: pty4j reads in native code (JNA poll), which pins a virtual thread's carrier for as long as the
    // shell is quiet, so on two cores two open terminals would hold every carrier and starve the hub's virtual threads.
    this.reader = Thread.ofPlatform().daemon().name("terminal-" + id + "-output").start(this::pump);
    Thread.ofVirtual().name("terminal-" + id + "-exit").start(this::awaitProgram);
    startGraceTimer();
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public TerminalSpec spec() {
    return spec;
  }

  @Override
  public long pid() {
    return record.pid();
  }

  ProcessRecord record() {
    return record;
  }

  @Override
  public void input(byte[] bytes) {
    try {
      OutputStream in = process.getOutputStream();
      in.write(bytes);
      in.flush();
    } catch (IOException e) {
      throw new ServiceException("terminal " + id + " no longer takes input: " + e.getMessage(), e);
    }
  }

  @Override
  public void resize(int columns, int rows) {
    if (columns < 1 || rows < 1) {
      throw new ServiceException("terminal size " + columns + "x" + rows + " is not a size");
    }
    process.setWinSize(new WinSize(columns, rows));
  }

  @Override
  public Subscription attach(TerminalListener listener) {
    Attachment attachment = new Attachment(listener);
    attachment.delivery.lock();
    try {
      byte[] replay;
      lock.lock();
      try {
        if (graceTimer != null) {
          graceTimer.close();
          graceTimer = null;
        }
        attached = attachment;
        replay = scrollback.snapshot();
      } finally {
        lock.unlock();
      }
      if (replay.length > 0) {
        listener.output(replay);
      }
    } finally {
      attachment.delivery.unlock();
    }
    exit.thenAccept(attachment::exited);
    return () -> detach(attachment);
  }

  @Override
  public Optional<Integer> exitCode() {
    return Optional.ofNullable(exit.getNow(null));
  }

  @Override
  public int awaitExit(Duration timeout) {
    try {
      return exit.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new ServiceException("terminal " + id + " did not exit within " + timeout.toMillis() + " ms", e);
    } catch (ExecutionException e) {
      throw new ServiceException("terminal " + id + " failed: " + e.getCause().getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ServiceException("interrupted while waiting for terminal " + id, e);
    }
  }

  @Override
  public void close() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      if (graceTimer != null) {
        graceTimer.close();
        graceTimer = null;
      }
    } finally {
      lock.unlock();
    }
    List<Long> left = group.terminate("HUP", owner.hangupGrace());
    if (!left.isEmpty()) {
      LOG.warn("Processes of terminal {} are still alive after SIGKILL: {}", id, left);
    }
    process.destroy();
    awaitExit(Duration.ofSeconds(10));
  }

  private void detach(Attachment attachment) {
    lock.lock();
    try {
      if (attached == attachment) {
        attached = null;
        startGraceTimerLocked();
      }
    } finally {
      lock.unlock();
    }
  }

  private void startGraceTimer() {
    lock.lock();
    try {
      startGraceTimerLocked();
    } finally {
      lock.unlock();
    }
  }

  private void startGraceTimerLocked() {
    if (!closed && !exit.isDone()) {
      graceTimer = owner.scheduler().schedule(owner.reattachGrace(), this::graceExpired);
    }
  }

  private void graceExpired() {
    boolean expired;
    lock.lock();
    try {
      expired = attached == null && graceTimer != null;
    } finally {
      lock.unlock();
    }
    if (expired) {
      LOG.info("Terminal {} had no viewer for {} and is closed", id, owner.reattachGrace());
      close();
    }
  }

  private void pump() {
    byte[] buffer = new byte[8192];
    try (InputStream out = process.getInputStream()) {
      int read;
      while ((read = out.read(buffer)) != -1) {
        Attachment target;
        lock.lock();
        try {
          scrollback.append(buffer, read);
          target = attached;
        } finally {
          lock.unlock();
        }
        if (target != null) {
          target.deliver(Arrays.copyOf(buffer, read));
        }
      }
    } catch (IOException e) {
      // The PTY reports EIO once the program and its group are gone.
    }
  }

  private void awaitProgram() {
    try {
      int code = process.waitFor();
      reader.join(Duration.ofSeconds(2));
      group.terminate("HUP", owner.hangupGrace());
      scope.close(); // cgroup.kill for what left the group and cleared its marker; the record erased
      owner.ended(this);
      exit.complete(code);
    } catch (InterruptedException e) {
      exit.completeExceptionally(e);
    }
  }

  /** One viewer; {@code delivery} keeps the replay before live output. */
  private final class Attachment {
    final ReentrantLock delivery = new ReentrantLock();
    final TerminalListener listener;

    Attachment(TerminalListener listener) {
      this.listener = listener;
    }

    void deliver(byte[] bytes) {
      delivery.lock();
      try {
        if (attached == this) {
          listener.output(bytes);
        }
      } finally {
        delivery.unlock();
      }
    }

    void exited(int code) {
      if (attached == this) {
        listener.exited(code);
      }
    }
  }
}
