package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code roundhouse shell (--project P | --task N | --attach ID)}: attaches this terminal to a shell the hub runs on
 * a PTY ({@code /api/x/pty}, docs/http.md), in the project's folder or the task's worktree, or to a detached one
 * again (the hub replays its recent output). Ctrl-P Ctrl-Q detaches: the shell keeps running on the hub for the
 * reattach grace period, and the command prints how to come back and exits 0. When stdin and stdout are a
 * terminal it switches it to raw mode (restored on exit, also on SIGTERM or SIGINT), sends its size first and
 * again on each SIGWINCH; keystrokes go to the shell as they are typed, so Ctrl-C reaches the remote shell. With
 * pipes instead, it copies stdin to the shell and, at its end, sends Ctrl-D (end of input at the shell's prompt).
 * Exits with the shell's exit code.
 *
 * <p>Not thread-safe as a command (picocli runs it once); the socket's listener, the stdin copier and the
 * SIGWINCH handler share only atomics, and every send is chained after the previous one (the JDK's WebSocket
 * allows one outstanding send).
 */
@Command(name = "shell", description = {"Open a shell on the hub (the project's folder or a task's worktree) in this terminal,"
    + " or reattach a detached one.", "Ctrl-P Ctrl-Q detaches; the shell waits on the hub for a reattach."},
    mixinStandardHelpOptions = true)
final class ShellCommand implements Callable<Integer> {
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);
  private static final byte END_OF_INPUT = 4; // Ctrl-D
  /** The detach keys, as Docker's: Ctrl-P then Ctrl-Q. A Ctrl-P followed by anything else is sent as typed. */
  private static final byte DETACH_FIRST = 0x10;
  private static final byte DETACH_SECOND = 0x11;

  private final Context context;

  @Spec CommandSpec spec;

  @Option(names = {"-p", "--project"}, paramLabel = "P", description = "The project (id or name): a shell in its folder.")
  String project;

  @Option(names = {"-t", "--task"}, paramLabel = "N", description = "The task: a shell in its working directory (its worktree).")
  Long task;

  @Option(names = {"-a", "--attach"}, paramLabel = "ID",
      description = "Reattach the detached hub terminal ID (within its grace period), replaying its recent output.")
  String attach;

  ShellCommand(Context context) {
    this.context = context;
  }

  @Override
  public Integer call() {
    if (attach != null && (project != null || task != null)) {
      throw new ParameterException(spec.commandLine(), "--attach ID reattaches a shell where it runs; leave out --project and --task");
    }
    if (project == null && task == null && attach == null) {
      throw new ParameterException(spec.commandLine(), "name the shell's place: --project P or --task N (or --attach ID)");
    }
    HubEndpoint endpoint = HubEndpoint.locate(context);
    try (LocalTerminal terminal = LocalTerminal.detect(); HttpClient client = HttpClient.newHttpClient()) {
      Screen screen = new Screen(System.out);
      WebSocket socket = connect(client, endpoint, terminal, screen);
      Sender sender = new Sender(socket);
      terminal.enterRawMode();
      terminal.onResize(() -> terminal.size().ifPresent(size -> sender.resize(size[0], size[1])));
      Thread copier = Thread.ofPlatform().daemon().name("roundhouse-shell-stdin").start(() -> copy(context.stdin(), sender, screen));
      int code = screen.awaitEnd();
      copier.interrupt();
      if (screen.detached()) {
        terminal.close();
        System.err.println("detached from hub terminal " + screen.session() + "; it waits on the hub for a reattach:"
            + " roundhouse shell --attach " + screen.session());
        return 0;
      }
      return code;
    }
  }

  private WebSocket connect(HttpClient client, HubEndpoint endpoint, LocalTerminal terminal, Screen screen) {
    StringBuilder query = new StringBuilder();
    if (attach != null) {
      query.append("session=").append(URLEncoder.encode(attach, StandardCharsets.UTF_8));
    }
    if (project != null) {
      query.append("project=").append(URLEncoder.encode(project, StandardCharsets.UTF_8));
    }
    if (task != null) {
      query.append(query.isEmpty() ? "" : "&").append("task=").append(task);
    }
    terminal.size().ifPresent(size -> query.append("&columns=").append(size[0]).append("&rows=").append(size[1]));
    URI uri = URI.create(endpoint.url().replaceFirst("^http", "ws") + "/api/x/pty?" + query);
    try {
      return client.newWebSocketBuilder()
          .header("Authorization", "Bearer " + endpoint.token())
          .header("User-Agent", "roundhouse-cli")
          .connectTimeout(CONNECT_TIMEOUT)
          .buildAsync(uri, screen)
          .get(CONNECT_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof WebSocketHandshakeException refused) {
        Object body = refused.getResponse().body();
        String reason = body instanceof String text && !text.isBlank() ? errorMessage(text) : "status " + refused.getResponse().statusCode();
        throw new CliFailure(ExitCode.FAILED, "shell_refused", "the hub refused the terminal: " + reason);
      }
      throw endpoint.unreachable(String.valueOf(e.getCause()));
    } catch (TimeoutException e) {
      throw endpoint.unreachable("no terminal within " + CONNECT_TIMEOUT.toSeconds() + " s");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliFailure(ExitCode.FAILED, "interrupted", "interrupted", e);
    }
  }

  private static String errorMessage(String body) {
    try {
      JsonNode error = Json.mapper().readTree(body).path("error");
      return error.path("message").isTextual() ? error.path("message").asText() : body;
    } catch (IOException e) {
      return body;
    }
  }

  /**
   * Copies {@code input} to the shell until it ends, then sends Ctrl-D; or until the detach keys, then detaches. A
   * Ctrl-P is held back until the next byte says whether it starts the detach keys. Runs on its own thread.
   */
  private static void copy(InputStream input, Sender sender, Screen screen) {
    byte[] buffer = new byte[8192];
    boolean held = false;
    try {
      for (int read; (read = input.read(buffer)) >= 0; ) {
        java.io.ByteArrayOutputStream typed = new java.io.ByteArrayOutputStream(read + 1);
        for (int i = 0; i < read; i++) {
          byte next = buffer[i];
          if (held) {
            held = false;
            if (next == DETACH_SECOND) {
              if (typed.size() > 0) {
                sender.bytes(typed.toByteArray());
              }
              screen.detaching();
              sender.detach();
              return;
            }
            typed.write(DETACH_FIRST);
          }
          if (next == DETACH_FIRST) {
            held = true;
          } else {
            typed.write(next);
          }
        }
        if (typed.size() > 0) {
          sender.bytes(typed.toByteArray());
        }
      }
      sender.bytes(held ? new byte[] {DETACH_FIRST, END_OF_INPUT} : new byte[] {END_OF_INPUT});
    } catch (IOException e) {
      // stdin closed under us: the shell's own end decides the exit
    }
  }

  /** Sends frames one after another, never two at once. Thread-safe (lock-free: each send waits on the previous). */
  private static final class Sender {
    private final WebSocket socket;
    private final AtomicReference<CompletableFuture<Void>> last = new AtomicReference<>(CompletableFuture.completedFuture(null));

    Sender(WebSocket socket) {
      this.socket = socket;
    }

    void bytes(byte[] data) {
      after(() -> socket.sendBinary(ByteBuffer.wrap(data), true));
    }

    /** Tells the hub to keep the shell for a reattach, then closes the socket. */
    void detach() {
      after(() -> socket.sendText(Json.write(Map.of("type", "detach")), true));
      after(() -> socket.sendClose(WebSocket.NORMAL_CLOSURE, "detached"));
    }

    void resize(int columns, int rows) {
      after(() -> socket.sendText(Json.write(Map.of("type", "resize", "columns", columns, "rows", rows)), true));
    }

    private void after(java.util.function.Supplier<CompletableFuture<WebSocket>> send) {
      CompletableFuture<Void> next = new CompletableFuture<>();
      CompletableFuture<Void> previous = last.getAndSet(next);
      previous.whenComplete((ignored, failure) -> {
        if (socket.isOutputClosed()) {
          next.complete(null);
          return;
        }
        send.get().whenComplete((sent, error) -> next.complete(null));
      });
    }
  }

  /** The socket's listener: output to stdout, the exit code from the hub's exit message. Thread-safe. */
  private static final class Screen implements WebSocket.Listener {
    private final PrintStream out;
    private final AtomicInteger exitCode = new AtomicInteger(-1);
    private final AtomicReference<String> session = new AtomicReference<>("?");
    private volatile boolean detached;
    private final CompletableFuture<String> ended = new CompletableFuture<>();
    private final StringBuilder text = new StringBuilder();

    Screen(PrintStream out) {
      this.out = out;
    }

    @Override
    public CompletionStage<?> onBinary(WebSocket socket, ByteBuffer data, boolean last) {
      byte[] bytes = new byte[data.remaining()];
      data.get(bytes);
      write(out, bytes);
      socket.request(1);
      return null;
    }

    @Override
    public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
      text.append(data); // the listener's calls never overlap
      if (last) {
        control(text.toString());
        text.setLength(0);
      }
      socket.request(1);
      return null;
    }

    private void control(String message) {
      try {
        JsonNode node = Json.mapper().readTree(message);
        if ("exit".equals(node.path("type").asText())) {
          exitCode.set(node.path("code").asInt(1));
        } else if ("session".equals(node.path("type").asText())) {
          session.set(node.path("id").asText());
        }
      } catch (IOException e) {
        // not ours to understand
      }
    }

    @Override
    public CompletionStage<?> onClose(WebSocket socket, int status, String reason) {
      ended.complete("closed (" + status + (reason.isEmpty() ? "" : " " + reason) + ")");
      return null;
    }

    @Override
    public void onError(WebSocket socket, Throwable error) {
      ended.complete("lost: " + error);
    }

    void detaching() {
      detached = true;
    }

    /** True when this end detached (the shell runs on); the socket's end is then no failure. */
    boolean detached() {
      return detached && exitCode.get() < 0;
    }

    String session() {
      return session.get();
    }

    /** Waits for the socket's end; the shell's exit code, or a failure when the hub sent none nor was detached from. */
    int awaitEnd() {
      String how;
      try {
        how = ended.join();
      } catch (CompletionException e) {
        how = String.valueOf(e.getCause());
      }
      out.flush();
      int code = exitCode.get();
      if (code < 0 && !detached) {
        throw new CliFailure(ExitCode.FAILED, "shell_lost", "the terminal ended without the shell's exit code: " + how);
      }
      return code;
    }

    private static void write(OutputStream out, byte[] bytes) {
      try {
        out.write(bytes);
        out.flush();
      } catch (IOException e) {
        // stdout is gone; the shell ends when the socket does
      }
    }
  }
}
