package dev.roundhouse.lspbridge.lsp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.http.HttpMount;
import dev.roundhouse.hubclient.HubAddress;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.websockets.WebSocketConnectionCallback;
import io.undertow.websockets.WebSocketProtocolHandshakeHandler;
import io.undertow.websockets.core.AbstractReceiveListener;
import io.undertow.websockets.core.BufferedBinaryMessage;
import io.undertow.websockets.core.BufferedTextMessage;
import io.undertow.websockets.core.WebSocketChannel;
import io.undertow.websockets.core.protocol.version07.Hybi07Handshake;
import io.undertow.websockets.core.protocol.version08.Hybi08Handshake;
import io.undertow.websockets.core.protocol.version13.Hybi13Handshake;
import io.undertow.websockets.spi.WebSocketHttpExchange;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /api/lsp}: the LSP bridge over a WebSocket on the hub's own server, one {@link SocketSession} per
 * connection. The mount is {@linkplain #guarded() guarded}: the hub refuses a foreign {@code Origin}, a foreign
 * {@code Host} and a missing or wrong token before the upgrade, with its usual JSON error. Each session's bridge
 * calls the hub back over loopback HTTP with the hub's own token, as {@code roundhouse lsp} does.
 *
 * <p>Thread-safe: the sessions are a concurrent set; the handshake runs on the request's virtual thread, frames
 * arrive on the I/O threads and go to their session, which never blocks there.
 */
final class SocketMount implements HttpMount {
  private static final Logger LOG = LoggerFactory.getLogger(SocketMount.class);

  private final Supplier<HubAddress> locator;
  private final LspBridge.Settings settings;
  private final Set<SocketSession> sessions = ConcurrentHashMap.newKeySet();
  private final AtomicLong opened = new AtomicLong();
  private final WebSocketProtocolHandshakeHandler upgrade;

  SocketMount(Supplier<HubAddress> locator, LspBridge.Settings settings) {
    this.locator = locator;
    this.settings = settings;
    Set<String> subprotocols = Set.of(LspWebSocket.SUBPROTOCOL);
    this.upgrade = new WebSocketProtocolHandshakeHandler(
        List.of(new Hybi13Handshake(subprotocols, false), new Hybi08Handshake(subprotocols, false), new Hybi07Handshake(subprotocols, false)),
        (WebSocketConnectionCallback) this::connected,
        exchange -> refuse(exchange, 426, "upgrade_required", LspWebSocket.PATH + " is a WebSocket: send a GET with Upgrade: websocket (docs/lsp-protocol.md)"));
  }

  @Override
  public String prefix() {
    return LspWebSocket.PATH;
  }

  @Override
  public boolean guarded() {
    return true;
  }

  @Override
  public HttpHandler handler() {
    return exchange -> {
      if (!exchange.getRequestPath().equals(LspWebSocket.PATH)) {
        refuse(exchange, 404, "unknown_route", "no route " + exchange.getRequestPath() + "; the bridge's WebSocket is " + LspWebSocket.PATH);
        return;
      }
      upgrade.handleRequest(exchange);
    };
  }

  /** Runs on the I/O thread once the socket is open. */
  private void connected(WebSocketHttpExchange exchange, WebSocketChannel channel) {
    SocketSession session = new SocketSession(channel, locator, settings, "roundhouse-lsp-socket-" + opened.incrementAndGet(), sessions::remove);
    sessions.add(session);
    channel.getReceiveSetter().set(new AbstractReceiveListener() {
      @Override
      protected void onFullTextMessage(WebSocketChannel socket, BufferedTextMessage message) {
        session.message(message.getData());
      }

      @Override
      @SuppressWarnings("deprecation") // BufferedBinaryMessage hands its data only as xnio's deprecated Pooled
      protected void onFullBinaryMessage(WebSocketChannel socket, BufferedBinaryMessage message) {
        message.getData().close();
        session.binary();
      }

      @Override
      protected long getMaxTextBufferSize() {
        return settings.maxMessage();
      }

      @Override
      protected long getMaxBinaryBufferSize() {
        return 1024;
      }
    });
    channel.addCloseTask(closed -> session.end());
    session.start();
    channel.resumeReceives();
  }

  /** How many sessions are running: each ends with its socket. */
  int sessions() {
    return sessions.size();
  }

  /** The sessions running now. */
  List<SocketSession> sessionList() {
    return List.copyOf(sessions);
  }

  private static void refuse(HttpServerExchange exchange, int status, String code, String message) {
    ObjectNode body = Json.mapper().createObjectNode();
    body.putObject("error").put("status", status).put("code", code).put("message", message);
    exchange.setStatusCode(status);
    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json; charset=utf-8");
    exchange.getResponseSender().send(Json.write(body) + "\n", StandardCharsets.UTF_8);
  }

  /** Ends every session (the server stopped listening): their bridges stop, their sockets are gone. */
  @Override
  public void close() {
    for (SocketSession session : List.copyOf(sessions)) {
      session.end();
    }
    for (SocketSession session : List.copyOf(sessions)) {
      try {
        if (!session.await(5_000)) {
          LOG.warn("an {} session did not end within 5 s of the hub stopping", LspWebSocket.PATH);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
