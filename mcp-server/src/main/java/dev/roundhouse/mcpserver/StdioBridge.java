package dev.roundhouse.mcpserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.BoundedLines;
import dev.roundhouse.hub.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.net.http.HttpResponse;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MCP over stdio, relayed to the hub's Streamable HTTP endpoint: each line on stdin (one JSON-RPC message)
 * is POSTed to {@code /mcp} with the session id and the MCP token; each message in the answer (a JSON body
 * or an SSE stream) becomes one line on stdout ({@link StdoutLines}). Once the session exists, the
 * {@link ListeningStream} carries the server's own messages to stdout as well. When stdin closes, in-flight
 * requests finish, the session is deleted and {@link #run} returns. stdout carries nothing but JSON-RPC;
 * diagnostics go to the log (stderr).
 *
 * <p>The parts: {@link HubConnection} (where the hub is, the session, the requests), {@link SessionRenewal}
 * (a new session when the hub forgot the old one, with what the client told it replayed from
 * {@link ClientReplay}), {@link ListeningStream} (the GET stream). This class is the loop and one request's
 * relay: a 404 for the session renews it and sends the request once more; a refused connection (the hub
 * moved, or stopped) finds the hub again, which may start one, and sends it once more. Only a refused
 * connection is retried: the request never reached a hub, so nothing runs twice.
 *
 * <p>A plain {@code initialize} as the first line is answered at once by the relay itself ({@link LocalInitialize}:
 * what the hub's server answers), and then sent to the hub to open the session, whose answer is dropped; only
 * then does the relay read the next line, so everything after {@code initialize} has its session. A client thus
 * has its answer before the relay has located the hub or built its HTTP client (docs/mcp.md).
 *
 * <p>Thread-safe for its one {@link #run}: stdin is read on the caller's thread, and every request after
 * {@code initialize} is relayed on a virtual thread of its own; they share the parts above, each thread-safe.
 */
final class StdioBridge {
  private static final Logger log = LoggerFactory.getLogger(StdioBridge.class);
  /** The longest stdin line read, in bytes: the hub's default body limit (1 MiB), which a longer message passes no better. */
  static final int MAX_LINE = 1 << 20;

  private final HubConnection hub;
  private final StdoutLines out;
  private final ClientReplay replay = new ClientReplay();
  private final SessionRenewal renewal;
  private final ListeningStream listening;
  private final boolean answerInitialize;

  /**
   * @param baseUrl the hub's base URL now
   * @param locator where the hub is when {@code baseUrl} stops answering
   */
  StdioBridge(String baseUrl, HubLocator locator, Supplier<String> token, Writer out) {
    this(baseUrl, locator, token, out, true);
  }

  /**
   * @param baseUrl the hub's base URL now, or null to ask the locator at the first request
   * @param locator where the hub is when {@code baseUrl} stops answering (or is not known yet)
   * @param answerInitialize whether a plain {@code initialize} as the first line is answered by the relay itself
   */
  StdioBridge(String baseUrl, HubLocator locator, Supplier<String> token, Writer out, boolean answerInitialize) {
    this.answerInitialize = answerInitialize;
    this.hub = new HubConnection(baseUrl, locator, token);
    this.out = new StdoutLines(out);
    this.renewal = new SessionRenewal(hub, replay);
    this.listening = new ListeningStream(hub, renewal, this::deliver);
  }

  /** Relays until {@code in} ends; returns 0. */
  int run(InputStream in) {
    try (ExecutorService requests = Executors.newVirtualThreadPerTaskExecutor(); InputStream input = in) {
      BoundedLines lines = new BoundedLines(input, MAX_LINE, 0);
      boolean first = true;
      for (BoundedLines.Line line; (line = lines.next()) != null; ) {
        if (line instanceof BoundedLines.TooLong tooLong) {
          log.warn("refused a stdin line of {} bytes (at most {})", tooLong.length(), MAX_LINE);
          out.write(StdoutLines.error(null, JsonRpcErrors.INVALID_REQUEST, "the message is " + tooLong.length()
              + " bytes long; roundhouse mcp accepts at most " + MAX_LINE + " per line"));
          continue;
        }
        String message = ((BoundedLines.Text) line).text();
        if (message.isBlank()) {
          continue;
        }
        Optional<String> local = first && answerInitialize ? LocalInitialize.answer(message) : Optional.empty();
        first = false;
        if (local.isPresent()) {
          out.writeLine(local.get());
          relay(message, true); // opens the session; the client has its answer
        } else if (hub.session() == null) {
          relay(message, false); // initialize: everything after it needs the session id it yields
        } else {
          requests.submit(() -> relay(message, false));
        }
      }
      requests.shutdown();
      requests.awaitTermination(30, TimeUnit.SECONDS);
    } catch (IOException e) {
      log.warn("reading stdin failed: {}", e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      listening.close();
      hub.close();
    }
    return 0;
  }

  /** The session the relay speaks for now (tests). */
  String session() {
    return hub.session();
  }

  /**
   * Relays {@code line} and passes the hub's answer on to the client, unless {@code answered}: then the client
   * has its answer already, and the hub's is only read (a refusal is logged).
   */
  private void relay(String line, boolean answered) {
    JsonNode message;
    try {
      message = Json.mapper().readTree(line);
    } catch (IOException e) {
      out.write(StdoutLines.error(null, -32700, "Parse error: " + e.getMessage().lines().findFirst().orElse("")));
      return;
    }
    JsonNode id = message.get("id");
    boolean request = message.hasNonNull("method") && id != null && !answered;
    String method = message.path("method").asText("");
    try {
      hub.locate();
      replay.record(method, message, line);
      String used = hub.session();
      HttpResponse<InputStream> response = postFollowingTheHub(line, used);
      if (response.statusCode() == 404 && used != null && !method.equals("initialize")) {
        response.body().close();
        renewal.renew(used);
        response = hub.send(hub.post(line).build()); // once
      }
      hub.adoptSession(response);
      if (answered && response.statusCode() != 200) {
        log.warn("the hub at {} answered HTTP {} to the initialize the relay had answered", hub.endpoint(), response.statusCode());
      }
      answer(response, id, request, answered ? this::checkOwnAnswer : this::deliver);
      if (method.equals("initialize")) {
        listening.open();
      }
    } catch (IOException e) {
      log.warn("relaying to {} failed: {}", hub.endpoint(), e.toString());
      if (request) {
        out.write(StdoutLines.error(id, -32603, "the hub at " + hub.endpoint() + " does not answer: " + e.getMessage()));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * POSTs {@code line}; when no hub accepts the connection, finds the hub again (it may have restarted on
   * another port, or be started now), renews the session {@code used} there, and POSTs once more.
   */
  private HttpResponse<InputStream> postFollowingTheHub(String line, String used) throws IOException, InterruptedException {
    try {
      return hub.send(hub.post(line).build());
    } catch (IOException e) {
      if (!HubConnection.refused(e)) {
        throw e; // it may have reached the hub: never sent twice
      }
      log.info("the hub at {} refuses connections ({}); locating it again", hub.endpoint(), e.toString());
      if (used == null) {
        hub.relocate(true);
      } else {
        renewal.renew(used);
      }
      return hub.send(hub.post(line).build());
    }
  }

  /** Writes the hub's answer to the request {@code id} to stdout: each SSE event, or the JSON body. */
  private void answer(HttpResponse<InputStream> response, JsonNode id, boolean request, Consumer<JsonNode> sink) throws IOException {
    String type = response.headers().firstValue("Content-Type").orElse("");
    try (InputStream body = response.body()) {
      if (type.startsWith("text/event-stream")) {
        SseMessages.forEach(body, sink);
        return;
      }
      byte[] bytes = body.readAllBytes();
      if (bytes.length > 0) {
        JsonNode answer = Json.mapper().readTree(bytes);
        if (response.statusCode() >= 400 && request && answer.path("id").isNull() && MessageChecks.usableId(id)) {
          ((ObjectNode) answer).set("id", id); // the hub's refusal, addressed to the request it refused
        }
        sink.accept(answer);
      } else if (response.statusCode() >= 400 && request) {
        out.write(StdoutLines.error(id, -32603, "the hub answered HTTP " + response.statusCode()));
      }
    }
  }

  /**
   * Reads the hub's answer to an {@code initialize} the relay answered itself: notes its protocol version, and
   * logs a refusal (the client learns of it from its next request's answer). Anything else the hub sent with it
   * (a notification) goes on to the client.
   */
  private void checkOwnAnswer(JsonNode message) {
    if (!message.has("result") && !message.has("error")) {
      deliver(message);
      return;
    }
    hub.rememberVersion(message);
    if (message.has("error")) {
      log.warn("the hub at {} refused the session's initialize, which the relay had answered: {}", hub.endpoint(), message.path("error"));
    }
  }

  /** Passes a message from the hub on to the client, noting the protocol version an initialize answer names. */
  private void deliver(JsonNode message) {
    hub.rememberVersion(message);
    out.write(message);
  }
}
