package dev.roundhouse.services.hub;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.spi.TurnPlace;
import dev.roundhouse.services.ServiceException;
import dev.roundhouse.services.Subscription;
import dev.roundhouse.services.TerminalListener;
import dev.roundhouse.services.TerminalSession;
import dev.roundhouse.services.TerminalSpec;
import dev.roundhouse.services.Terminals;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.AttachmentKey;
import io.undertow.websockets.WebSocketConnectionCallback;
import io.undertow.websockets.WebSocketProtocolHandshakeHandler;
import io.undertow.websockets.core.AbstractReceiveListener;
import io.undertow.websockets.core.BufferedBinaryMessage;
import io.undertow.websockets.core.BufferedTextMessage;
import io.undertow.websockets.core.WebSocketChannel;
import io.undertow.websockets.core.WebSockets;
import io.undertow.websockets.core.protocol.version07.Hybi07Handshake;
import io.undertow.websockets.core.protocol.version08.Hybi08Handshake;
import io.undertow.websockets.core.protocol.version13.Hybi13Handshake;
import io.undertow.websockets.spi.WebSocketHttpExchange;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.xnio.Pooled;

/**
 * {@code /api/x/pty?project=P[&task=N][&columns=C&rows=R][&session=ID]}: a real shell on a PTY over a WebSocket,
 * in the project's folder (or the task's working directory, its worktree when the workspace module gives it
 * one) with the project's PORT in its environment. The hub checked the token, the origin and the host on the
 * upgrade request before this runs.
 *
 * <p>Frames: binary both ways are the terminal's bytes (keystrokes in, output out). Text frames are JSON:
 * the server first sends {@code {"type":"session","id":…,"pid":…}}, and {@code {"type":"exit","code":N}} when the
 * shell ends (then closes the socket); the client may send {@code {"type":"resize","columns":C,"rows":R}},
 * {@code {"type":"input","data":"…"}} and {@code {"type":"detach"}}. Closing the socket hangs up the shell's
 * process group, unless the client detached first: then the session waits for a reattach ({@code session=ID})
 * during the reattach grace period, and replays its recent output when one comes.
 *
 * <p>Thread-safe: the engine's {@link Terminals} keeps the sessions; receive callbacks run on the connection's I/O thread and
 * hand anything that may block (attaching, hanging up) to a virtual thread; output is sent, blocking, on the
 * terminal's reader thread (a viewer that reads slowly holds the shell back, as a slow real terminal would).
 */
final class TerminalRoute implements HttpHandler, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TerminalRoute.class);
  /**
   * The subprotocol this route speaks, echoed when the client offers it. A browser that sends the token as the
   * subprotocol {@code roundhouse.token.<token>} (the hub's guard takes that entry out) must offer this one
   * beside it: a browser fails an upgrade that offered subprotocols and got none back.
   */
  static final String SUBPROTOCOL = "roundhouse.pty";

  private static final AttachmentKey<Opening> OPENING = AttachmentKey.create(Opening.class);

  /** What the upgrade request asked for, resolved before the upgrade so that errors are plain HTTP answers. */
  private record Opening(TerminalSession session, boolean reattached) {}

  private final HubServices services;
  private final Terminals terminals;
  private final WebSocketProtocolHandshakeHandler upgrade;

  TerminalRoute(HubServices services, Terminals terminals) {
    this.services = services;
    this.terminals = terminals;
    Set<String> subprotocols = Set.of(SUBPROTOCOL);
    this.upgrade = new WebSocketProtocolHandshakeHandler(
        List.of(new Hybi13Handshake(subprotocols, false), new Hybi08Handshake(subprotocols, false), new Hybi07Handshake(subprotocols, false)),
        (WebSocketConnectionCallback) this::connected,
        exchange -> LogRoute.send(exchange, 426, "upgrade_required", "/api/x/pty is a WebSocket: send a GET with Upgrade: websocket (docs/http.md)"));
  }

  @Override
  public void handleRequest(HttpServerExchange exchange) throws Exception {
    if (!"websocket".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Upgrade"))) {
      LogRoute.send(exchange, 426, "upgrade_required", "/api/x/pty is a WebSocket: send a GET with Upgrade: websocket (docs/http.md)");
      return;
    }
    Opening opening;
    try {
      opening = open(exchange.getQueryParameters());
    } catch (RoundhouseException e) {
      LogRoute.send(exchange, e instanceof RoundhouseException.NotFound ? 404 : e instanceof RoundhouseException.Conflict ? 409 : 400,
          e.code(), e.getMessage());
      return;
    } catch (ServiceException e) {
      LogRoute.send(exchange, 400, "invalid_input", e.getMessage());
      return;
    }
    exchange.putAttachment(OPENING, opening);
    upgrade.handleRequest(exchange);
    if (!exchange.isUpgrade() && !opening.reattached()) {
      opening.session().close();
    }
  }

  private Opening open(Map<String, Deque<String>> query) {
    String reattach = first(query, "session");
    if (reattach != null) {
      TerminalSession session = terminals.find(reattach).orElseThrow(() -> new RoundhouseException.NotFound(
          "no terminal session " + reattach + ": it ended, or its reattach grace period passed"));
      if (first(query, "columns") != null && first(query, "rows") != null) {
        session.resize(size(query, "columns", 80), size(query, "rows", 24)); // the new client's size, not the last one's
      }
      return new Opening(session, true);
    }
    String taskText = first(query, "task");
    String projectText = first(query, "project");
    Project project;
    TurnPlace place;
    if (taskText != null) {
      long taskId;
      try {
        taskId = Long.parseLong(taskText);
      } catch (NumberFormatException e) {
        throw new RoundhouseException.InvalidInput("task must be a task id, not '" + taskText + "'");
      }
      Task task = services.task(taskId);
      project = services.project(task.projectId());
      if (projectText != null && services.project(projectText).id() != project.id()) {
        throw new RoundhouseException.InvalidInput("task " + taskId + " is not in project " + projectText);
      }
      place = services.context().placeOf(taskId);
    } else if (projectText != null) {
      project = services.project(projectText);
      place = TurnPlace.of(Path.of(project.path()));
    } else {
      throw new RoundhouseException.InvalidInput("a terminal needs project=<id or name> or task=<id>");
    }
    Map<String, String> env = new LinkedHashMap<>(place.environment());
    env.putAll(services.ports().environment(project));
    env.put("ROUNDHOUSE_PROJECT", project.name());
    if (taskText != null) {
      env.put("ROUNDHOUSE_TASK", taskText);
    }
    TerminalSession session = terminals.open(new TerminalSpec(List.of(), place.workingDirectory().toString(), env,
        size(query, "columns", 80), size(query, "rows", 24)));
    return new Opening(session, false);
  }

  /** Runs on the I/O thread once the socket is open. */
  private void connected(WebSocketHttpExchange exchange, WebSocketChannel channel) {
    TerminalSession session = exchange.getAttachment(OPENING).session();
    AtomicBoolean detached = new AtomicBoolean();
    Viewer viewer = new Viewer(channel);
    channel.getReceiveSetter().set(new AbstractReceiveListener() {
      @Override
      @SuppressWarnings("deprecation") // BufferedBinaryMessage hands its data only as xnio's deprecated Pooled
      protected void onFullBinaryMessage(WebSocketChannel socket, BufferedBinaryMessage message) {
        try (Pooled<ByteBuffer[]> data = message.getData()) {
          int size = 0;
          for (ByteBuffer buffer : data.getResource()) {
            size += buffer.remaining();
          }
          byte[] bytes = new byte[size];
          int at = 0;
          for (ByteBuffer buffer : data.getResource()) {
            int length = buffer.remaining();
            buffer.get(bytes, at, length);
            at += length;
          }
          session.input(bytes);
        }
      }

      @Override
      protected void onFullTextMessage(WebSocketChannel socket, BufferedTextMessage message) {
        control(session, detached, message.getData());
      }
    });
    channel.addCloseTask(closed -> {
      viewer.close();
      if (!detached.get()) {
        Thread.ofVirtual().name("terminal-" + session.id() + "-hangup").start(session::close);
      }
    });
    channel.resumeReceives();
    Thread.ofVirtual().name("terminal-" + session.id() + "-attach").start(() -> {
      viewer.text(Json.write(Map.of("type", "session", "id", session.id(), "pid", session.pid())));
      viewer.subscription(session.attach(viewer));
    });
  }

  private static void control(TerminalSession session, AtomicBoolean detached, String text) {
    JsonNode message;
    try {
      message = Json.mapper().readTree(text);
    } catch (IOException e) {
      LOG.debug("terminal {}: a text frame that is not JSON was ignored", session.id());
      return;
    }
    switch (message.path("type").asText()) {
      case "resize" -> session.resize(message.path("columns").asInt(80), message.path("rows").asInt(24));
      case "input" -> session.input(message.path("data").asText().getBytes(StandardCharsets.UTF_8));
      case "detach" -> detached.set(true);
      default -> LOG.debug("terminal {}: unknown control message {}", session.id(), message.path("type").asText());
    }
  }

  /** Sends the terminal's output to one socket; ends the socket when the shell exits. Thread-safe. */
  private static final class Viewer implements TerminalListener {
    private final WebSocketChannel channel;
    private volatile Subscription subscription;
    private volatile boolean closed;

    Viewer(WebSocketChannel channel) {
      this.channel = channel;
    }

    void subscription(Subscription value) {
      subscription = value;
      if (closed) {
        value.close();
      }
    }

    @Override
    public void output(byte[] bytes) {
      if (closed) {
        return;
      }
      try {
        WebSockets.sendBinaryBlocking(ByteBuffer.wrap(bytes), channel);
      } catch (IOException e) {
        close();
      }
    }

    @Override
    public void exited(int exitCode) {
      text(Json.write(Map.of("type", "exit", "code", exitCode)));
      try {
        WebSockets.sendCloseBlocking(1000, "exited with code " + exitCode, channel);
      } catch (IOException e) {
        // the viewer is gone already
      }
      close();
    }

    void text(String json) {
      if (closed) {
        return;
      }
      try {
        WebSockets.sendTextBlocking(json, channel);
      } catch (IOException e) {
        close();
      }
    }

    void close() {
      closed = true;
      Subscription current = subscription;
      if (current != null) {
        current.close();
      }
    }
  }

  private static int size(Map<String, Deque<String>> query, String name, int fallback) {
    String text = first(query, name);
    if (text == null) {
      return fallback;
    }
    try {
      int value = Integer.parseInt(text);
      if (value >= 1 && value <= 1000) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new RoundhouseException.InvalidInput(name + " must be a whole number from 1 to 1000, not '" + text + "'");
  }

  private static String first(Map<String, Deque<String>> query, String name) {
    Deque<String> values = query.get(name);
    return values == null || values.isEmpty() ? null : values.getFirst();
  }

  @Override
  public void close() {
    terminals.close();
  }
}
