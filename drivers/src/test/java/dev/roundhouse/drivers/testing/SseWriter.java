package dev.roundhouse.drivers.testing;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The body of a server-sent event stream that a {@link FakeHttpServer} reply writes: each event framed as an
 * optional {@code event:} line, one {@code data:} line and a blank line, and flushed on its own, so the client
 * sees it as soon as it is written. {@link #paced} spreads the events out as a model streams its tokens; a
 * paced stream ends (with an {@link InterruptedIOException}) when the server closes.
 *
 * <p>Not thread-safe: one per response, used by the thread answering it. Get one from {@link
 * FakeHttpServer.Exchange#sse()}.
 */
public final class SseWriter {
  /** The line break the Gemini API frames its events with (the default is {@code "\n"}). */
  public static final String CRLF = "\r\n";

  private final OutputStream out;
  private final String lineBreak;
  private final CountDownLatch closing;
  private long gapNanos;
  private long next;

  SseWriter(OutputStream out, String lineBreak, CountDownLatch closing) {
    this.out = out;
    this.lineBreak = lineBreak;
    this.closing = closing;
  }

  /**
   * From now on writes the events {@code gap} apart, on a fixed schedule (so the stream does not drift): the
   * next one at once, each following one {@code gap} after the one before.
   */
  public SseWriter paced(Duration gap) {
    gapNanos = gap.toNanos();
    next = System.nanoTime();
    return this;
  }

  /** An event named {@code name} whose data is {@code data}'s text (for a JSON node, its JSON). */
  public void event(String name, Object data) throws IOException {
    write("event: " + name + lineBreak + "data: " + data + lineBreak + lineBreak);
  }

  /** An unnamed event whose data is {@code data}'s text. */
  public void data(Object data) throws IOException {
    write("data: " + data + lineBreak + lineBreak);
  }

  private void write(String event) throws IOException {
    awaitTurn();
    out.write(event.getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  private void awaitTurn() throws IOException {
    if (gapNanos == 0) {
      return;
    }
    long wait = next - System.nanoTime();
    next += gapNanos;
    if (wait <= 0) {
      return;
    }
    try {
      if (closing.await(wait, TimeUnit.NANOSECONDS)) {
        throw new InterruptedIOException("the fake server closed during a paced stream");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted during a paced stream");
    }
  }
}
