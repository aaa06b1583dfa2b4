package dev.roundhouse.app;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The terminal this process runs in, through {@code stty} on {@code /dev/tty}: whether there is one, its size,
 * raw mode on and off again (restored by a shutdown hook too, so SIGTERM or SIGINT leaves the user's terminal
 * usable), and a callback on {@code SIGWINCH} (through {@code sun.misc.Signal}, reached reflectively like
 * {@link StopSignals} does). Without a terminal (stdin or stdout a pipe) every method does nothing.
 *
 * <p>Thread-safe: {@link #restore()} runs at most once, from whichever thread gets there first.
 */
final class LocalTerminal implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LocalTerminal.class);
  private static final File TTY = new File("/dev/tty");

  private final boolean present;
  private final AtomicBoolean restored = new AtomicBoolean();
  private volatile String saved;
  private volatile Thread hook;

  private LocalTerminal(boolean present) {
    this.present = present;
  }

  /** The terminal when both stdin and stdout are one (raw mode only makes sense then), else none. */
  static LocalTerminal detect() {
    // Since JDK 25 System.console() is null unless stdin and stdout are both a terminal.
    return new LocalTerminal(System.console() != null && TTY.exists());
  }

  boolean present() {
    return present;
  }

  /** Columns and rows, when there is a terminal and {@code stty size} answers. */
  Optional<int[]> size() {
    if (!present) {
      return Optional.empty();
    }
    Optional<String> answer = stty("size");
    if (answer.isEmpty()) {
      return Optional.empty();
    }
    String[] parts = answer.get().strip().split("\\s+");
    try {
      return parts.length == 2 ? Optional.of(new int[] {Integer.parseInt(parts[1]), Integer.parseInt(parts[0])}) : Optional.empty();
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** Puts the terminal in raw mode without echo; {@link #restore()} (or the JVM's shutdown) puts it back. */
  void enterRawMode() {
    if (!present) {
      return;
    }
    saved = stty("-g").map(String::strip).orElse(null);
    Thread restoring = Thread.ofPlatform().name("roundhouse-shell-restore-tty").unstarted(this::restore);
    Runtime.getRuntime().addShutdownHook(restoring);
    hook = restoring;
    stty("raw", "-echo");
  }

  /** Restores the terminal's settings from before raw mode; only the first call acts. */
  void restore() {
    if (!present || saved == null || !restored.compareAndSet(false, true)) {
      return;
    }
    stty(saved);
  }

  /** Runs {@code action} on each SIGWINCH (the window changed size); false when the signal cannot be handled. */
  boolean onResize(Runnable action) {
    if (!present) {
      return false;
    }
    try {
      Class<?> signalType = Class.forName("sun.misc.Signal");
      Class<?> handlerType = Class.forName("sun.misc.SignalHandler");
      Object signal = signalType.getConstructor(String.class).newInstance("WINCH");
      Object handler = Proxy.newProxyInstance(LocalTerminal.class.getClassLoader(), new Class<?>[] {handlerType},
          (proxy, method, args) -> invoked(proxy, method, args, action));
      signalType.getMethod("handle", signalType, handlerType).invoke(null, signal, handler);
      return true;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      log.debug("cannot handle SIGWINCH ({}); the size is sent at start only", e.toString());
      return false;
    }
  }

  private static Object invoked(Object proxy, Method method, Object[] args, Runnable action) {
    return switch (method.getName()) {
      case "handle" -> {
        action.run();
        yield null;
      }
      case "equals" -> proxy == args[0];
      case "hashCode" -> System.identityHashCode(proxy);
      case "toString" -> "roundhouse shell SIGWINCH handler";
      default -> null;
    };
  }

  /** Runs {@code stty args} on /dev/tty; its output, or empty when it failed. */
  private static Optional<String> stty(String... args) {
    List<String> command = new java.util.ArrayList<>(List.of("stty"));
    command.addAll(List.of(args));
    try {
      Process process = new ProcessBuilder(command).redirectInput(TTY).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return Optional.empty();
      }
      return process.exitValue() == 0 ? Optional.of(out) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  @Override
  public void close() {
    restore();
    Thread registered = hook;
    if (registered != null) {
      try {
        Runtime.getRuntime().removeShutdownHook(registered);
      } catch (IllegalStateException e) {
        // the JVM is shutting down: the hook runs (and does nothing, restored already)
      }
    }
  }
}
