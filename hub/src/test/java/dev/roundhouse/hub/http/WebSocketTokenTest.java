package dev.roundhouse.hub.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.roundhouse.hub.spi.ExtensionContext;
import dev.roundhouse.hub.spi.HubExtension;
import dev.roundhouse.hub.testing.HttpTestClient.Reply;
import dev.roundhouse.hub.testing.TestHub;
import io.undertow.util.Headers;
import io.undertow.websockets.WebSocketConnectionCallback;
import io.undertow.websockets.WebSocketProtocolHandshakeHandler;
import io.undertow.websockets.core.AbstractReceiveListener;
import io.undertow.websockets.core.WebSockets;
import io.undertow.websockets.core.protocol.version13.Hybi13Handshake;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The token as a WebSocket subprotocol ({@code roundhouse.token.<token>}), for clients that cannot set headers on
 * an upgrade: a real server on 127.0.0.1 and the JDK's WebSocket client.
 */
class WebSocketTokenTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final String REAL = "roundhouse.test";

  /** A module serving a WebSocket that speaks {@link #REAL} and greets with the subprotocols it was offered. */
  static final class Socket implements HubExtension {
    final AtomicReference<String> offered = new AtomicReference<>();

    @Override
    public String name() {
      return "sock";
    }

    @Override
    public void start(ExtensionContext context) {
      WebSocketProtocolHandshakeHandler upgrade = new WebSocketProtocolHandshakeHandler(
          List.of(new Hybi13Handshake(Set.of(REAL), false)),
          (WebSocketConnectionCallback) (exchange, channel) -> {
            channel.getReceiveSetter().set(new AbstractReceiveListener() {}); // answers a close with a close
            WebSockets.sendText("hello", channel, null);
            channel.resumeReceives();
          },
          exchange -> exchange.getResponseSender().send("{\"plain\":true}"));
      context.serve("sock", exchange -> {
        offered.set(String.valueOf(exchange.getRequestHeaders().getFirst(Headers.SEC_WEB_SOCKET_PROTOCOL)));
        upgrade.handleRequest(exchange);
      });
    }
  }

  /** Records the first text message. Thread-safe. */
  static final class Greeting implements WebSocket.Listener {
    final CompletableFuture<String> text = new CompletableFuture<>();

    @Override
    public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
      text.complete(data.toString());
      return null;
    }
  }

  private final Socket module = new Socket();
  private TestHub hub;
  private HttpClient client;

  @BeforeEach
  void open() {
    hub = TestHub.withExtensions(config -> config, List.of(), List.of(module));
    client = HttpClient.newHttpClient();
  }

  @AfterEach
  void close() {
    hub.close();
    client.shutdownNow();
  }

  private URI socketUri() {
    return URI.create(hub.server().url().replace("http://", "ws://") + "/api/x/sock");
  }

  private WebSocket connect(Greeting listener, String origin, String... subprotocols) {
    WebSocket.Builder builder = client.newWebSocketBuilder().subprotocols(subprotocols[0], java.util.Arrays.copyOfRange(subprotocols, 1, subprotocols.length));
    if (origin != null) {
      builder.header("Origin", origin);
    }
    return builder.buildAsync(socketUri(), listener).orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();
  }

  private static int refusal(Throwable thrown) {
    assertThat(thrown).isInstanceOf(CompletionException.class).cause().isInstanceOf(WebSocketHandshakeException.class);
    return ((WebSocketHandshakeException) thrown.getCause()).getResponse().statusCode();
  }

  @Test
  void anUpgradeWithTheTokenAsASubprotocolIsAcceptedAndOnlyTheRealSubprotocolIsEchoed() throws Exception {
    Greeting greeting = new Greeting();
    WebSocket socket = connect(greeting, "http://localhost:3000", REAL, "roundhouse.token." + hub.hub().token());

    assertThat(socket.getSubprotocol()).isEqualTo(REAL);
    assertThat(greeting.text.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo("hello");
    assertThat(module.offered.get()).as("the module never sees the token").isEqualTo(REAL);
    socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").join();
  }

  @Test
  void anUpgradeWithAWrongTokenOrNoneIsRefused() {
    assertThat(refusal(catchThrown(() -> connect(new Greeting(), null, REAL, "roundhouse.token.not-the-token")))).isEqualTo(401);
    assertThat(refusal(catchThrown(() -> connect(new Greeting(), null, REAL, "roundhouse.token.")))).isEqualTo(401);
    assertThat(refusal(catchThrown(() -> connect(new Greeting(), null, REAL)))).isEqualTo(401);
    String token = "roundhouse.token." + hub.hub().token();
    assertThat(refusal(catchThrown(() -> connect(new Greeting(), null, REAL, token, "roundhouse.token.other"))))
        .as("two token subprotocols").isEqualTo(401);
    assertThat(module.offered.get()).as("the module saw none of them").isNull();
  }

  @Test
  void anUpgradeWithTheRightTokenFromAForeignOriginIsRefused() {
    String token = "roundhouse.token." + hub.hub().token();
    assertThat(refusal(catchThrown(() -> connect(new Greeting(), "https://evil.example", REAL, token)))).isEqualTo(403);
    assertThat(module.offered.get()).isNull();
  }

  @Test
  void theTokenAsASubprotocolOnAPlainRequestIsNotACredential() {
    String token = "roundhouse.token." + hub.hub().token();
    Reply plain = hub.http().send(HttpRequest.newBuilder(URI.create(hub.server().url() + "/api/x/sock"))
        .header("Sec-WebSocket-Protocol", REAL + ", " + token).GET());
    assertThat(plain.status()).isEqualTo(401);
    assertThat(plain.errorMessage()).contains("only on a WebSocket upgrade");
    Reply operations = hub.http().send(HttpRequest.newBuilder(URI.create(hub.server().url() + "/api/ops"))
        .header("Sec-WebSocket-Protocol", token).GET());
    assertThat(operations.status()).isEqualTo(401);
    assertThat(module.offered.get()).isNull();
  }

  @Test
  void theBearerHeaderStillOpensASocketAndAnyTokenSubprotocolIsStripped() throws Exception {
    Greeting greeting = new Greeting();
    WebSocket socket = client.newWebSocketBuilder()
        .header("Authorization", "Bearer " + hub.hub().token())
        .subprotocols(REAL, "roundhouse.token.whatever")
        .buildAsync(socketUri(), greeting).orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();
    assertThat(socket.getSubprotocol()).isEqualTo(REAL);
    assertThat(greeting.text.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo("hello");
    assertThat(module.offered.get()).isEqualTo(REAL);
    socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").join();
  }

  private static Throwable catchThrown(Runnable action) {
    try {
      action.run();
    } catch (Throwable thrown) {
      return thrown;
    }
    throw new AssertionError("expected a refusal");
  }
}
