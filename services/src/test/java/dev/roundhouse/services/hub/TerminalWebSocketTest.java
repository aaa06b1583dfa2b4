package dev.roundhouse.services.hub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.testing.Waits;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A real shell on a PTY through a real WebSocket client (java.net.http) against the hub's /api/x/pty. */
class TerminalWebSocketTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  private TestHub hub;
  private int port;
  private HttpClient client;

  @BeforeEach
  void start() {
    hub = TestHub.withExtensions(config -> config, List.of(), List.of(new ServicesExtension(ServicesHubSupport.settings())));
    ServicesHubSupport.project(hub.hub(), "web", Path.of(hub.folder("web")));
    port = hub.http().op("service_list", Map.of("project", "web")).path("port").asInt();
    client = HttpClient.newHttpClient();
  }

  @AfterEach
  void stop() {
    client.shutdownNow(); // close() would wait for a socket a failed test left open
    hub.close();
  }

  /** Collects what the server sends. Thread-safe. */
  static final class Screen implements WebSocket.Listener {
    final StringBuffer output = new StringBuffer();
    final StringBuffer control = new StringBuffer();
    final CompletableFuture<Integer> closed = new CompletableFuture<>();

    @Override
    public CompletionStage<?> onBinary(WebSocket socket, ByteBuffer data, boolean last) {
      byte[] bytes = new byte[data.remaining()];
      data.get(bytes);
      output.append(new String(bytes, StandardCharsets.UTF_8));
      socket.request(1);
      return null;
    }

    @Override
    public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
      control.append(data).append('\n');
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

    void await(String regex) {
      Pattern pattern = Pattern.compile(regex);
      Waits.until("output matching " + regex + " (so far: " + output + ")", WAIT, () -> pattern.matcher(output).find());
    }

    long pid() {
      Waits.until("the session message", WAIT, () -> control.toString().contains("\"session\""));
      return Json.read(control.toString().lines().findFirst().orElseThrow(), com.fasterxml.jackson.databind.JsonNode.class)
          .path("pid").asLong();
    }
  }

  private WebSocket connect(Screen screen, String query, String... headers) {
    WebSocket.Builder builder = client.newWebSocketBuilder()
        .header("Authorization", "Bearer " + hub.hub().token());
    for (int i = 0; i < headers.length; i += 2) {
      builder.header(headers[i], headers[i + 1]);
    }
    return builder.buildAsync(URI.create(hub.server().url().replace("http://", "ws://") + "/api/x/pty?" + query), screen)
        .orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();
  }

  private static void type(WebSocket socket, String text) {
    socket.sendBinary(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), true).join();
  }

  @Test
  void shellEchoesResizesAndReportsItsExitCode() throws Exception {
    Screen screen = new Screen();
    WebSocket socket = connect(screen, "project=web&columns=100&rows=30");
    long pid = screen.pid();

    type(socket, "echo \"port=$PORT home=$HOME\"; stty size\n");
    // The shell starts from the services' environment (HOME is the tests' own), not the hub JVM's.
    screen.await("port=" + port + " home=" + java.util.regex.Pattern.quote(dev.roundhouse.hub.testing.ShellEnvironment.withEmptyHome().get("HOME")) + "\\r?\\n");
    screen.await("30 100\\r?\\n");
    socket.sendText(Json.write(Map.of("type", "resize", "columns", 132, "rows", 43)), true).join();
    type(socket, "stty size\n");
    screen.await("43 132\\r?\\n");
    type(socket, "exit 7\n");

    assertThat(screen.closed.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(1000);
    assertThat(screen.control.toString()).contains("\"type\":\"exit\"").contains("\"code\":7");
    Waits.until("the shell is gone", WAIT, () -> !ServicesHubSupport.alive(pid));
  }

  @Test
  void closingTheSocketHangsUpTheShellAndWhatItStarted() throws Exception {
    Screen screen = new Screen();
    WebSocket socket = connect(screen, "project=web");
    long pid = screen.pid();
    type(socket, "sleep 300 & echo started-$!\n");
    screen.await("started-\\d+");
    java.util.regex.Matcher started = Pattern.compile("started-(\\d+)").matcher(screen.output);
    started.find();
    long child = Long.parseLong(started.group(1));
    assertThat(ServicesHubSupport.alive(child)).isTrue();

    socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").join();

    Waits.until("the shell and its job are gone", WAIT, () -> !ServicesHubSupport.alive(pid) && !ServicesHubSupport.alive(child));
  }

  @Test
  void aDetachedSessionIsReattachedWithItsScrollbackAtTheNewClientsSize() throws Exception {
    Screen first = new Screen();
    WebSocket socket = connect(first, "project=web&columns=100&rows=30");
    long pid = first.pid();
    String session = Json.read(first.control.toString().lines().findFirst().orElseThrow(),
        com.fasterxml.jackson.databind.JsonNode.class).path("id").asText();
    type(socket, "echo before-$((6*7))\n");
    first.await("before-42");
    socket.sendText(Json.write(Map.of("type", "detach")), true).join();
    socket.sendClose(WebSocket.NORMAL_CLOSURE, "window reload").join();
    first.closed.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(ServicesHubSupport.alive(pid)).as("a detached shell waits for its client").isTrue();

    Screen second = new Screen();
    WebSocket again = connect(second, "session=" + session + "&columns=132&rows=43");
    second.await("before-42"); // the recent output, replayed
    type(again, "stty size\n");
    second.await("43 132\\r?\\n");
    assertThat(second.pid()).isEqualTo(pid);
    again.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
    Waits.until("the reattached shell is hung up on close", WAIT, () -> !ServicesHubSupport.alive(pid));
  }

  @Test
  void reattachingAnUnknownSessionIsANotFound() {
    assertThatThrownBy(() -> connect(new Screen(), "session=no-such-session"))
        .isInstanceOf(CompletionException.class)
        .cause().isInstanceOf(WebSocketHandshakeException.class)
        .satisfies(e -> assertThat(((WebSocketHandshakeException) e).getResponse().statusCode()).isEqualTo(404));
  }

  @Test
  void anUpgradeFromAForeignOriginOrWithoutTheTokenIsRefused() {
    assertThatThrownBy(() -> connect(new Screen(), "project=web", "Origin", "http://evil.example"))
        .isInstanceOf(CompletionException.class)
        .cause().isInstanceOf(WebSocketHandshakeException.class)
        .satisfies(e -> assertThat(((WebSocketHandshakeException) e).getResponse().statusCode()).isEqualTo(403));
    assertThatThrownBy(() -> client.newWebSocketBuilder()
        .buildAsync(URI.create(hub.server().url().replace("http://", "ws://") + "/api/x/pty?project=web"), new Screen())
        .orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join())
        .cause().isInstanceOf(WebSocketHandshakeException.class)
        .satisfies(e -> assertThat(((WebSocketHandshakeException) e).getResponse().statusCode()).isEqualTo(401));
  }

  @Test
  void aClientThatCannotSetHeadersSendsTheTokenAsASubprotocolAndGetsOnlyThePtySubprotocolBack() throws Exception {
    Screen screen = new Screen();
    WebSocket socket = client.newWebSocketBuilder()
        .header("Origin", "http://localhost:5173")
        .subprotocols("roundhouse.pty", "roundhouse.token." + hub.hub().token())
        .buildAsync(URI.create(hub.server().url().replace("http://", "ws://") + "/api/x/pty?project=web"), screen)
        .orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();
    assertThat(socket.getSubprotocol()).isEqualTo("roundhouse.pty");
    long pid = screen.pid();
    type(socket, "exit 4\n");
    assertThat(screen.closed.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(1000);
    assertThat(screen.control.toString()).contains("\"code\":4");
    Waits.until("the shell is gone", WAIT, () -> !ServicesHubSupport.alive(pid));
    assertThatThrownBy(() -> client.newWebSocketBuilder()
        .subprotocols("roundhouse.pty", "roundhouse.token.wrong")
        .buildAsync(URI.create(hub.server().url().replace("http://", "ws://") + "/api/x/pty?project=web"), new Screen())
        .orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join())
        .cause().isInstanceOf(WebSocketHandshakeException.class)
        .satisfies(e -> assertThat(((WebSocketHandshakeException) e).getResponse().statusCode()).isEqualTo(401));
  }
}
