package dev.roundhouse.lspbridge.lsp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hubclient.HubAddress;
import java.io.IOException;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import io.undertow.websockets.core.WebSocketChannel;
import io.undertow.websockets.core.WebSockets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client of {@code /api/lsp}: a bridge of its own ({@link LspBridge#serve}) on a virtual thread, reading
 * the socket's text frames through {@link SocketInput} and writing its messages through {@link SocketOutput},
 * one JSON-RPC message per text frame each way. A frame that is not a JSON-RPC message at all (not JSON, not an
 * object, a binary frame) is answered here with -32700 or -32600 and {@code "id": null}, as JSON-RPC asks;
 * anything else goes to the bridge, which answers it as it does on stdio.
 *
 * <p>The session ends when the socket closes (the bridge's thread is interrupted: its hub calls and event
 * streams stop, nothing is left running) or when the client sends {@code exit} (the socket is closed).
 *
 * <p>Thread-safety: {@link #message} and {@link #end} run on the socket's I/O thread and never block; the
 * bridge's thread sends, blocking, through Undertow's channel, which queues frames from any thread.
 */
final class SocketSession {
  private static final Logger LOG = LoggerFactory.getLogger(SocketSession.class);

  private final WebSocketChannel channel;
  private final SocketInput input;
  private final Supplier<HubAddress> locator;
  private final LspBridge.Settings settings;
  private final Consumer<SocketSession> ended;
  private final String name;
  private volatile Thread thread;

  /**
   * @param ended takes this session once, on the bridge's thread, when it is over
   */
  SocketSession(WebSocketChannel channel, Supplier<HubAddress> locator, LspBridge.Settings settings, String name, Consumer<SocketSession> ended) {
    this.channel = channel;
    this.locator = locator;
    this.settings = settings;
    this.name = name;
    this.ended = ended;
    this.input = new SocketInput(channel::suspendReceives, channel::resumeReceives);
  }

  /** Starts the bridge on a virtual thread of its own. */
  void start() {
    thread = Thread.ofVirtual().name(name).start(this::run);
  }

  private void run() {
    try {
      SocketOutput output = new SocketOutput(message -> WebSockets.sendTextBlocking(message, channel));
      LspBridge.serve(input, output, locator, settings, warning -> LOG.info("{}: {}", name, warning));
    } catch (RuntimeException e) {
      LOG.warn("{}: the bridge failed", name, e);
    } finally {
      if (channel.isOpen()) {
        try {
          WebSockets.sendCloseBlocking(1000, "the bridge ended (exit)", channel);
        } catch (IOException e) {
          // the client is gone already
        }
      }
      ended.accept(this);
    }
  }

  /** One text frame from the client. */
  void message(String text) {
    Optional<String> refusal = refusal(text);
    if (refusal.isPresent()) {
      WebSockets.sendText(refusal.get(), channel, null);
    } else {
      input.offer(text);
    }
  }

  /** A binary frame: the protocol is JSON text. */
  void binary() {
    WebSockets.sendText(error(-32600, "send each JSON-RPC message as a WebSocket text frame, not a binary one"), channel, null);
  }

  /** The socket closed: the bridge stops now (its answers could go nowhere). Idempotent. */
  void end() {
    input.end();
    Thread running = thread;
    if (running != null) {
      running.interrupt();
    }
  }

  /** Waits for the bridge's thread to finish, at most {@code millis}; true if it has. */
  boolean await(long millis) throws InterruptedException {
    Thread running = thread;
    return running == null || running.join(java.time.Duration.ofMillis(millis));
  }

  /**
   * The answer to a frame that is not a JSON-RPC message, or empty for one the bridge should read: -32700 for
   * text that is not JSON, -32600 for JSON that is not an object or carries neither a method nor a result or error.
   */
  static Optional<String> refusal(String text) {
    JsonNode message;
    try {
      message = Json.mapper().readTree(text);
    } catch (IOException e) {
      return Optional.of(error(-32700, "Parse error: the frame is not JSON (" + firstLine(e.getMessage()) + ")"));
    }
    if (message == null || !message.isObject()) {
      return Optional.of(error(-32600, "Invalid Request: a frame holds one JSON-RPC message, a JSON object"
          + (message != null && message.isArray() ? " (batches are not supported)" : "")));
    }
    if (!message.has("method") && !message.has("result") && !message.has("error")) {
      return Optional.of(error(-32600, "Invalid Request: the message has no method, result or error"));
    }
    return Optional.empty();
  }

  private static String error(int code, String message) {
    ObjectNode answer = Json.mapper().createObjectNode();
    answer.put("jsonrpc", "2.0");
    answer.putNull("id");
    answer.putObject("error").put("code", code).put("message", message);
    return Json.write(answer);
  }

  private static String firstLine(String text) {
    if (text == null) {
      return "unreadable";
    }
    String line = text.lines().findFirst().orElse(text);
    return line.length() > 120 ? line.substring(0, 120) + "…" : line;
  }
}
