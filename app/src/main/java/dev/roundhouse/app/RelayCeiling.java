package dev.roundhouse.app;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The ceiling of {@code bench services}: the same writer, followed by as many {@code curl} viewers, through the least
 * a hub could do. One thread reads the writer's pipe with the hub's pump's pacing ({@code OutputPump}: 64 KiB reads,
 * a 300 µs pause after one under 32 KiB) and copies each read's bytes, as they are, to every viewer's socket: no
 * lines, no log kept, no SSE framing (the viewers receive the log once each, about half of what the hub's events
 * carry). Whatever this reaches is the most any hub can reach on this machine with every viewer receiving every
 * byte: the writer, the relay and the viewers share its cores.
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
    List<Socket> sockets = new ArrayList<>();
    try (ServerSocket server = new ServerSocket(0, viewers, InetAddress.getLoopbackAddress())) {
      server.setSoTimeout((int) wait.toMillis());
      String url = "http://127.0.0.1:" + server.getLocalPort() + "/";
      for (int i = 0; i < viewers; i++) {
        followers.add(new ProcessBuilder("curl", "-sN", "-o", "/dev/null", url).redirectError(ProcessBuilder.Redirect.DISCARD).start());
        sockets.add(accept(server, i));
      }
      Process process = new ProcessBuilder(writer).directory(folder.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      FutureTask<Void> relay = new FutureTask<>(() -> relay(process.getInputStream(), sockets), null);
      Thread.ofVirtual().name("bench-relay").start(relay);
      boolean exited = process.waitFor(wait.toSeconds(), TimeUnit.SECONDS);
      if (!exited || process.exitValue() != 0) {
        process.destroyForcibly();
        String why = relay.state() == Future.State.FAILED ? ": " + relay.exceptionNow().getMessage() : "";
        throw new IllegalStateException("the log writer through the relay did not finish cleanly" + why);
      }
      try {
        relay.get(wait.toSeconds(), TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
      }
    } finally {
      for (Socket socket : sockets) {
        socket.close();
      }
      ServicesBenchmark.stop(followers);
    }
  }

  /** The next viewer's connection, its request read and the response's head sent. */
  private Socket accept(ServerSocket server, int viewer) throws IOException {
    Socket socket;
    try {
      socket = server.accept();
    } catch (SocketTimeoutException e) {
      throw new IOException("relay viewer " + viewer + " (curl) did not connect within " + wait, e);
    }
    InputStream request = socket.getInputStream();
    StringBuilder seen = new StringBuilder();
    while (seen.indexOf("\r\n\r\n") < 0) { // a GET has no body: its head ends the request
      int next = request.read();
      if (next < 0 || seen.length() > 8192) {
        socket.close();
        throw new IOException("relay viewer " + viewer + " (curl) sent no whole request: " + seen);
      }
      seen.append((char) next);
    }
    socket.getOutputStream().write(RESPONSE_HEAD);
    return socket;
  }

  private static void relay(InputStream pipe, List<Socket> sockets) {
    byte[] buffer = new byte[READ_BYTES];
    try (pipe) {
      List<OutputStream> outs = new ArrayList<>();
      for (Socket socket : sockets) {
        outs.add(socket.getOutputStream());
      }
      for (int read; (read = pipe.read(buffer)) != -1; ) {
        for (OutputStream out : outs) {
          out.write(buffer, 0, read);
        }
        if (read < FLOOD_BYTES) {
          LockSupport.parkNanos(PAUSE_NANOS); // as the hub's pump paces its reads
        }
      }
    } catch (IOException e) {
      // closing the pipe (above) ends the writer too, so the run fails at once rather than at its deadline
      throw new UncheckedIOException("the relay failed: " + e.getMessage(), e);
    }
  }
}
