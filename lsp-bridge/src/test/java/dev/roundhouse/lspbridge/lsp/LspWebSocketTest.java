package dev.roundhouse.lspbridge.lsp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.testing.TextFrames;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /api/lsp}: the bridge over a WebSocket on a real hub server on 127.0.0.1, driven by the JDK's WebSocket
 * client: the hub's token and Origin checks before the upgrade, an {@code initialize} answered, a malformed frame
 * answered with a JSON-RPC error and the next frame answered, and the session ending with its socket.
 */
class LspWebSocketTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"initialize\",\"params\":{\"processId\":null,\"rootUri\":null,"
          + "\"capabilities\":{\"experimental\":{\"roundhouse\":true}}}}";

  /** The next frame, as JSON. */
  private static JsonNode next(TextFrames frames) throws Exception {
    return Json.mapper().readTree(frames.next(WAIT));
  }

  /** The next frame that answers request {@code id} (notifications before it are passed over). */
  private static JsonNode answer(TextFrames frames, int id) throws Exception {
    while (true) {
      JsonNode message = next(frames);
      if (message.has("id") && message.path("id").asInt(-1) == id && !message.has("method")) {
        return message;
      }
    }
  }

  private TestHub hub;
  private SocketMount mount;
  private HttpClient client;

  @BeforeEach
  void start() {
    hub = TestHub.withMounts(config -> config, h -> {
      mount = (SocketMount) LspWebSocket.mount(h, BridgeFixture.FAST);
      return List.of(mount);
    });
    client = HttpClient.newHttpClient();
  }

  @AfterEach
  void stop() {
    client.shutdownNow();
    hub.close();
    assertThat(mount.sessions()).as("the hub's stop ends every session").isZero();
  }

  private URI uri() {
    return URI.create(hub.server().url().replace("http://", "ws://") + LspWebSocket.PATH);
  }

  private WebSocket connect(TextFrames frames) {
    return client.newWebSocketBuilder().header("Authorization", "Bearer " + hub.hub().token())
        .buildAsync(uri(), frames).orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();
  }

  private static WebSocketHandshakeException refused(Runnable connect) {
    try {
      connect.run();
    } catch (CompletionException e) {
      assertThat(e.getCause()).isInstanceOf(WebSocketHandshakeException.class);
      return (WebSocketHandshakeException) e.getCause();
    }
    throw new AssertionError("the upgrade was accepted");
  }

  @Test
  void anUpgradeWithoutTheTokenOrWithAWrongOneIsRefusedWithTheReason() {
    WebSocketHandshakeException none = refused(() -> client.newWebSocketBuilder().buildAsync(uri(), new TextFrames()).join());
    assertThat(none.getResponse().statusCode()).isEqualTo(401);
    assertThat((String) none.getResponse().body()).contains("missing 'Authorization: Bearer <token>'");
    WebSocketHandshakeException wrong = refused(() -> client.newWebSocketBuilder().header("Authorization", "Bearer nope")
        .buildAsync(uri(), new TextFrames()).join());
    assertThat(wrong.getResponse().statusCode()).isEqualTo(401);
    assertThat((String) wrong.getResponse().body()).contains("not this hub's token");
    assertThat(mount.sessions()).isZero();
  }

  @Test
  void anUpgradeFromAForeignOriginIsRefusedEvenWithTheToken() {
    WebSocketHandshakeException foreign = refused(() -> client.newWebSocketBuilder()
        .header("Authorization", "Bearer " + hub.hub().token()).header("Origin", "https://evil.example")
        .buildAsync(uri(), new TextFrames()).join());
    assertThat(foreign.getResponse().statusCode()).isEqualTo(403);
    assertThat((String) foreign.getResponse().body()).contains("origin 'https://evil.example' are refused");
    assertThat(mount.sessions()).isZero();
  }

  @Test
  void theTokenAsASubprotocolOpensTheSocketAndTheBridgeSubprotocolIsEchoed() throws Exception {
    TextFrames frames = new TextFrames();
    WebSocket socket = client.newWebSocketBuilder()
        .subprotocols(LspWebSocket.SUBPROTOCOL, "roundhouse.token." + hub.hub().token())
        .header("Origin", "http://localhost:3000")
        .buildAsync(uri(), frames).orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();
    assertThat(socket.getSubprotocol()).isEqualTo(LspWebSocket.SUBPROTOCOL);
    socket.sendText(INITIALIZE.formatted(1), true).join();
    assertThat(answer(frames, 1).path("result").path("serverInfo").path("name").asText()).isNotEmpty();
    socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
  }

  @Test
  void initializeIsAnsweredAndARoundhouseRequestReachesTheHub() throws Exception {
    TextFrames frames = new TextFrames();
    WebSocket socket = connect(frames);
    socket.sendText(INITIALIZE.formatted(1), true).join();
    JsonNode initialized = answer(frames, 1);
    assertThat(initialized.path("result").path("capabilities").path("experimental").path("roundhouse").path("requests").toString())
        .contains("board");
    socket.sendText("{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}", true).join();
    hub.http().op("project_create", java.util.Map.of("name", "web", "path", System.getProperty("java.io.tmpdir")));
    socket.sendText("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"roundhouse/call\",\"params\":{\"name\":\"project_list\",\"arguments\":{}}}", true).join();
    assertThat(answer(frames, 2).path("result").toString()).as("the bridge called the hub back").contains("\"web\"");
    socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
  }

  @Test
  void aMalformedFrameIsAnsweredWithAnErrorAndTheNextFrameIsAnswered() throws Exception {
    TextFrames frames = new TextFrames();
    WebSocket socket = connect(frames);
    socket.sendText("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":", true).join();
    JsonNode parseError = next(frames);
    assertThat(parseError.path("error").path("code").asInt()).isEqualTo(-32700);
    assertThat(parseError.path("id").isNull()).isTrue();
    socket.sendText("[1,2]", true).join();
    JsonNode batch = next(frames);
    assertThat(batch.path("error").path("code").asInt()).isEqualTo(-32600);
    assertThat(batch.path("error").path("message").asText()).contains("batches are not supported");
    socket.sendText("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"roundhouse/nope\",\"params\":{}}", true).join();
    assertThat(answer(frames, 7).path("error").path("code").asInt()).as("the bridge's own answer").isEqualTo(-32601);
    socket.sendText(INITIALIZE.formatted(8), true).join();
    assertThat(answer(frames, 8).has("result")).isTrue();
    socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
  }

  @Test
  void closingTheSocketEndsTheSessionAndExitClosesTheSocket() throws Exception {
    TextFrames first = new TextFrames();
    WebSocket socket = connect(first);
    socket.sendText(INITIALIZE.formatted(1), true).join();
    answer(first, 1);
    socket.sendText("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"roundhouse/subscribe\",\"params\":{}}", true).join();
    answer(first, 2);
    List<SocketSession> running = mount.sessionList();
    assertThat(running).hasSize(1);
    socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
    assertThat(running.getFirst().await(WAIT.toMillis())).as("the bridge's thread ended with the socket").isTrue();
    assertThat(mount.sessions()).isZero();

    TextFrames second = new TextFrames();
    WebSocket other = connect(second);
    other.sendText(INITIALIZE.formatted(1), true).join();
    answer(second, 1);
    other.sendText("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"shutdown\"}", true).join();
    answer(second, 2);
    other.sendText("{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}", true).join();
    assertThat(second.closed.get(WAIT.toSeconds(), TimeUnit.SECONDS)).as("exit closes the socket normally").isEqualTo(1000);
  }
}
