package dev.roundhouse.lspbridge.lsp;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The messages of a WebSocket's text frames as the byte stream the bridge reads on stdio: each frame becomes
 * one {@code Content-Length} frame, so the bridge's own reader ({@link FrameReader}) and everything behind it
 * serve a socket as they serve a pipe. {@link #end()} makes the stream end once what was queued is read.
 *
 * <p>Flow control: when more than {@link #HIGH_WATER} bytes wait unread, {@code pause} runs (the socket stops
 * reading from the network); once the reader has taken them down below {@link #LOW_WATER}, {@code resume}
 * runs. Each runs at most once per crossing; both re-check after flipping, so a pause that races the reader's
 * last read is resumed by one of them.
 *
 * <p>Thread-safety: {@link #offer} and {@link #end} may be called from any thread (the socket's I/O thread);
 * one thread reads (LSP4J's reader). No lock: a blocking queue and atomics.
 */
final class SocketInput extends InputStream {
  static final long HIGH_WATER = 4L << 20;
  static final long LOW_WATER = 1L << 20;
  private static final byte[] END = new byte[0];

  private final LinkedBlockingQueue<byte[]> frames = new LinkedBlockingQueue<>();
  private final AtomicLong pending = new AtomicLong();
  private final AtomicBoolean paused = new AtomicBoolean();
  private final AtomicBoolean ended = new AtomicBoolean();
  private final Runnable pause;
  private final Runnable resume;
  private byte[] current = new byte[0];
  private int at;
  private boolean atEnd;

  SocketInput(Runnable pause, Runnable resume) {
    this.pause = pause;
    this.resume = resume;
  }

  /** Queues one message (a text frame's JSON) for the reader; ignored after {@link #end}. */
  void offer(String message) {
    if (ended.get()) {
      return;
    }
    byte[] body = message.getBytes(StandardCharsets.UTF_8);
    byte[] header = ("Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    byte[] framed = new byte[header.length + body.length];
    System.arraycopy(header, 0, framed, 0, header.length);
    System.arraycopy(body, 0, framed, header.length, body.length);
    frames.add(framed);
    if (pending.addAndGet(framed.length) > HIGH_WATER && paused.compareAndSet(false, true)) {
      pause.run();
      resumeIfDrained(); // the reader may have drained the queue while this thread paused
    }
  }

  /** The stream ends after the messages queued so far; idempotent. */
  void end() {
    if (ended.compareAndSet(false, true)) {
      frames.add(END);
    }
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    if (length == 0) {
      return 0;
    }
    if (at == current.length && !next()) {
      return -1;
    }
    int count = Math.min(length, current.length - at);
    System.arraycopy(current, at, buffer, offset, count);
    at += count;
    return count;
  }

  @Override
  public int available() {
    return current.length - at;
  }

  /** Takes the next frame; false at the end. */
  private boolean next() throws IOException {
    if (atEnd) {
      return false;
    }
    byte[] frame;
    try {
      frame = frames.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("the WebSocket session ended");
    }
    if (frame == END) {
      atEnd = true;
      return false;
    }
    pending.addAndGet(-frame.length);
    resumeIfDrained();
    current = frame;
    at = 0;
    return true;
  }

  private void resumeIfDrained() {
    if (pending.get() < LOW_WATER && paused.compareAndSet(true, false)) {
      resume.run();
    }
  }

  @Override
  public void close() {
    end();
  }
}
