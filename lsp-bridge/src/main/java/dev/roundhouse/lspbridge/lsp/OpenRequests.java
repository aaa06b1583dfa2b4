package dev.roundhouse.lspbridge.lsp;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.eclipse.lsp4j.jsonrpc.MessageConsumer;
import org.eclipse.lsp4j.jsonrpc.messages.RequestMessage;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseMessage;
import dev.roundhouse.hub.core.Locks;

/**
 * The client's requests the bridge has read and not yet answered, seen on the wire: a request counts from
 * the moment LSP4J reads it until its response has been written to the output. At the end of the input the
 * bridge waits on {@link #awaitNone} before it exits, so every request read is answered.
 *
 * <p>Thread-safe: the reader thread adds, whichever thread writes a response removes; {@code lock} guards
 * only the wait and its signal, never a write.
 */
final class OpenRequests {
  private final Set<String> open = ConcurrentHashMap.newKeySet();
  private final ReentrantLock lock = Locks.tracked("lsp-open-requests");
  private final Condition answered = lock.newCondition();

  /** Wraps the consumer of incoming messages: a request is noted before it is dispatched. */
  MessageConsumer reading(MessageConsumer next) {
    return message -> {
      if (message instanceof RequestMessage request && request.getId() != null) {
        open.add(request.getId());
      }
      next.consume(message);
    };
  }

  /** Wraps the consumer of outgoing messages: a request is answered once its response has been written. */
  MessageConsumer writing(MessageConsumer next) {
    return message -> {
      try {
        next.consume(message);
      } finally {
        if (message instanceof ResponseMessage response && response.getId() != null && open.remove(response.getId())) {
          lock.lock();
          try {
            answered.signalAll();
          } finally {
            lock.unlock();
          }
        }
      }
    };
  }

  /** Waits until every request read has been answered, for at most {@code timeout}; true if none is left. */
  boolean awaitNone(Duration timeout) throws InterruptedException {
    long left = timeout.toNanos();
    lock.lock();
    try {
      while (!open.isEmpty()) {
        if (left <= 0) {
          return false;
        }
        left = answered.awaitNanos(left);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  int size() {
    return open.size();
  }
}
