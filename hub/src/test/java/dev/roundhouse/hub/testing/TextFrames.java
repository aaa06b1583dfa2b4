package dev.roundhouse.hub.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.WebSocket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A JDK WebSocket client listener for tests: the text messages received, each whole (a message sent in parts is
 * joined) and in order, and how the socket closed. Thread-safe: the client calls it from one thread at a time, and
 * the test reads the queue and the future.
 */
public final class TextFrames implements WebSocket.Listener {
  private final LinkedBlockingQueue<String> texts = new LinkedBlockingQueue<>();
  private final StringBuilder partial = new StringBuilder();
  /** The close's status code; completed exceptionally when the socket failed. */
  public final CompletableFuture<Integer> closed = new CompletableFuture<>();

  @Override
  public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
    partial.append(data);
    if (last) {
      texts.add(partial.toString());
      partial.setLength(0);
    }
    socket.request(1);
    return null;
  }

  @Override
  public CompletionStage<?> onClose(WebSocket socket, int status, String reason) {
    closed.complete(status);
    return null;
  }

  @Override
  public void onError(WebSocket socket, Throwable error) {
    closed.completeExceptionally(error);
  }

  /** The next whole text message; fails the test when none comes within {@code wait}. */
  public String next(Duration wait) throws InterruptedException {
    String text = texts.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(text).as("a text message within " + wait).isNotNull();
    return text;
  }
}
