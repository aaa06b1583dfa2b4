package dev.roundhouse.app;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets {@code serve} stop cleanly and exit 0 on SIGTERM or SIGINT. It takes over those two signals (the
 * JVM would otherwise start its shutdown and exit 143 or 130), so the main thread closes the server and the
 * hub itself and returns normally. A second signal while stopping halts at once with 128 + the signal's
 * number. A JVM shutdown started any other way (SIGHUP, {@code System.exit}) still stops cleanly, through a
 * shutdown hook that waits for the main thread's cleanup; so does SIGTERM if the signal API is missing,
 * only then the exit status is the JVM's 143.
 *
 * <p>{@code sun.misc.Signal} is one of the critical internal APIs JEP 260 keeps available; it is reached
 * reflectively so the build stays free of "internal proprietary API" warnings.
 *
 * <p>Thread-safe: signal handlers and the hook run on their own threads and only touch latches.
 */
final class StopSignals {
  private static final Logger log = LoggerFactory.getLogger(StopSignals.class);
  private static final Duration HOOK_PATIENCE = Duration.ofSeconds(20);

  private final CountDownLatch requested = new CountDownLatch(1);
  private final CountDownLatch finished = new CountDownLatch(1);
  private final AtomicReference<String> reason = new AtomicReference<>();

  /** Takes over SIGTERM and SIGINT and adds the shutdown hook; call once, before waiting. */
  void install() {
    Runtime.getRuntime()
        .addShutdownHook(
            Thread.ofPlatform()
                .name("roundhouse-shutdown")
                .unstarted(
                    () -> {
                      request("JVM shutdown");
                      try {
                        finished.await(HOOK_PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
                      } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                      }
                    }));
    trap("TERM", 15);
    trap("INT", 2);
  }

  /** Blocks until a stop is requested; returns what requested it, such as {@code SIGTERM}. */
  String awaitRequest() throws InterruptedException {
    requested.await();
    return reason.get();
  }

  /** Called by the main thread once the hub is closed; releases a waiting shutdown hook. */
  void finished() {
    finished.countDown();
  }

  private void request(String why) {
    reason.compareAndSet(null, why);
    requested.countDown();
  }

  private void signalled(String name, int number) {
    if (requested.getCount() == 0) {
      System.err.println("roundhouse: SIG" + name + " again while stopping; exiting now");
      Runtime.getRuntime().halt(128 + number);
    }
    request("SIG" + name);
  }

  /** {@code sun.misc.Signal.handle(new Signal(name), s -> signalled(name, number))}, reflectively. */
  private void trap(String name, int number) {
    try {
      Class<?> signalType = Class.forName("sun.misc.Signal");
      Class<?> handlerType = Class.forName("sun.misc.SignalHandler");
      Object signal = signalType.getConstructor(String.class).newInstance(name);
      Object handler =
          Proxy.newProxyInstance(
              StopSignals.class.getClassLoader(),
              new Class<?>[] {handlerType},
              (proxy, method, args) -> invoked(proxy, method, args, name, number));
      signalType.getMethod("handle", signalType, handlerType).invoke(null, signal, handler);
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      log.warn("cannot handle SIG{} ({}); it will stop the hub through the JVM's shutdown, exiting 128+{}", name, e, number);
    }
  }

  private Object invoked(Object proxy, Method method, Object[] args, String name, int number) {
    return switch (method.getName()) {
      case "handle" -> {
        signalled(name, number);
        yield null;
      }
      case "equals" -> proxy == args[0];
      case "hashCode" -> System.identityHashCode(proxy);
      case "toString" -> "roundhouse SIG" + name + " handler";
      default -> null;
    };
  }
}
