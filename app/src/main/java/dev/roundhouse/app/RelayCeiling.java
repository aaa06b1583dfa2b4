package dev.roundhouse.app;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The ceiling of {@code bench services}: the same writer, followed by as many {@code curl} viewers, through the least
 * a hub could do. One thread reads the writer's pipe as the hub's pump does (64 KiB reads, a 300 µs pause after a
 * short one) and copies each read's bytes, as they are, to every viewer's socket: no lines, no log kept, no SSE
 * framing (the viewers receive the log once each, about half of what the hub's events carry). Whatever this reaches is
 * the most any hub can reach on this machine with every viewer receiving every byte: the writer, the relay and the
 * viewers share its cores.
 *
 * <p>Not thread-safe; one run at a time.
 */
final class RelayCeiling {
  private static final int READ_BYTES = 64 * 1024;
  private static final int FLOOD_BYTES = 32 * 1024;
  private static final long PAUSE_NANOS = 300_000;
  private static final byte[] RESPONSE_HEAD =
      "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

  private final List<String> writer;
  private final Path folder;
  private final int viewers;
  private final Duration wait;

  /** {@code writer}: the writer's command line, run in {@code folder}; its own figures are read by the caller. */
  RelayCeiling(List<String> writer, Path folder, int viewers, Duration wait) {
    this.writer = writer;
    this.folder = folder;
    this.viewers = viewers;
    this.wait = wait;
  }

  /** Runs the writer through the relay until it exits. */
  void run() throws Exception {
    List<Process> followers = new ArrayList<>();
    List<SocketChannel> sockets = new ArrayList<>();
    try (ServerSocketChannel server = ServerSocketChannel.open()) {
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      String url = "http://127.0.0.1:" + ((InetSocketAddress) server.getLocalAddress()).getPort() + "/";
      for (int i = 0; i < viewers; i++) {
        followers.add(new ProcessBuilder("curl", "-sN", "-o", "/dev/null", url).redirectError(ProcessBuilder.Redirect.DISCARD).start());
        SocketChannel socket = server.accept(); // curl connects at once; a curl that fails ends the run with an error below
        readRequestHead(socket);
        write(socket, ByteBuffer.wrap(RESPONSE_HEAD));
        sockets.add(socket);
      }
      Process process = new ProcessBuilder(writer).directory(folder.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      FutureTask<Void> relay = new FutureTask<>(() -> relay(process.getInputStream(), sockets), null);
      Thread.ofVirtual().name("bench-relay").start(relay);
      if (!process.waitFor(wait.toSeconds(), TimeUnit.SECONDS) || process.exitValue() != 0) {
        process.destroyForcibly();
        throw new IllegalStateException("the log writer through the relay did not finish cleanly");
      }
      relay.get(wait.toSeconds(), TimeUnit.SECONDS);
    } finally {
      for (SocketChannel socket : sockets) {
        socket.close();
      }
      for (Process follower : followers) {
        follower.destroy();
        follower.waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  private static void relay(InputStream pipe, List<SocketChannel> sockets) {
    byte[] buffer = new byte[READ_BYTES];
    ByteBuffer out = ByteBuffer.allocateDirect(READ_BYTES);
    try (pipe) {
      for (int read; (read = pipe.read(buffer)) != -1; ) {
        out.clear();
        out.put(buffer, 0, read).flip();
        for (SocketChannel socket : sockets) {
          write(socket, out.duplicate());
        }
        if (read < FLOOD_BYTES) {
          LockSupport.parkNanos(PAUSE_NANOS); // as the hub's pump paces its reads
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("the relay failed: " + e.getMessage(), e);
    }
  }

  private static void write(SocketChannel socket, ByteBuffer bytes) throws IOException {
    while (bytes.hasRemaining()) {
      socket.write(bytes);
    }
  }

  /** Reads up to the blank line that ends curl's request (a GET has no body). */
  private static void readRequestHead(SocketChannel socket) throws IOException {
    ByteBuffer head = ByteBuffer.allocate(8192);
    StringBuilder seen = new StringBuilder();
    while (seen.indexOf("\r\n\r\n") < 0) {
      head.clear();
      if (socket.read(head) < 0 || seen.length() > 8192) {
        throw new IOException("a viewer closed before its request ended: " + seen);
      }
      seen.append(new String(head.array(), 0, head.position(), StandardCharsets.US_ASCII));
    }
  }
}
