package dev.roundhouse.services;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers status changes to listeners in the order they happened, on one virtual thread of its own, so no
 * listener runs under a service's lock or on the thread that changed the status. Thread-safe.
 */
final class EventDispatcher {
  private static final Logger LOG = LoggerFactory.getLogger(EventDispatcher.class);
  private static final ServiceState STOP = new ServiceState("", null, null, null, null, 0, 0, null, null, 0, -1);

  private final List<StatusListener> listeners = new CopyOnWriteArrayList<>();
  private final LinkedBlockingQueue<ServiceState> queue = new LinkedBlockingQueue<>();
  private final Thread thread;

  EventDispatcher(String project) {
    thread = Thread.ofVirtual().name("services-" + project + "-events").start(this::deliver);
  }

  void publish(ServiceState state) {
    queue.add(state);
  }

  Subscription add(StatusListener listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  /** Delivers what is queued, then ends the thread. */
  void close() {
    queue.add(STOP);
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void deliver() {
    while (true) {
      ServiceState state;
      try {
        state = queue.take();
      } catch (InterruptedException e) {
        return;
      }
      if (state == STOP) {
        return;
      }
      for (StatusListener listener : listeners) {
        try {
          listener.changed(state);
        } catch (RuntimeException e) {
          LOG.warn("A status listener failed on {} becoming {}", state.name(), state.status(), e);
        }
      }
    }
  }
}
