package dev.roundhouse.mcpserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MCP over stdio, relayed to the hub's Streamable HTTP endpoint: each line on stdin (one JSON-RPC message)
 * is POSTed to {@code /mcp} with the session id and the MCP token; each message in the answer (a JSON body
 * or an SSE stream) becomes one line on stdout. Once the session exists, a GET stream carries the server's own
 * messages to stdout as well (the SDK sends {@code resources/updated}, and a call's progress and log
 * notifications, on it); as an open stream, it also keeps the hub from sweeping the session while the relay
 * runs. When stdin closes, in-flight requests finish, the session is deleted and {@link #run} returns. stdout
 * carries nothing but JSON-RPC; diagnostics go to the log (stderr).
 *
 * <p><b>Sessions the hub forgot.</b> A restarted hub knows no session, and the hub closes a session idle for 30
 * minutes with no stream open (the relay's GET stream can be down when the sweep runs: it reconnects after a
 * drop); either way it answers 404. The relay then starts a new session on the client's behalf, replaying
 * what the client told the old one ({@link ClientReplay}), swallows the answers to those replays, and sends
 * the request that got the 404 once more, so the client never notices. Concurrent requests that hit the same
 * 404 wait for that one new session (a single flight, no lock held during I/O). The GET stream does the same
 * when the hub refuses it with 404.
 *
 * <p><b>A hub that moved.</b> A hub restarted on another port leaves the relay's URL refusing connections.
 * A request whose connection is refused, and every renewal, first asks the {@link HubLocator} where the hub
 * is now (it may start one); the request is then sent once more, through a new session. Only a refused
 * connection is retried: the request never reached a hub, so nothing runs twice. The GET stream, which
 * nobody waits on, asks the locator not to start a hub: it follows a hub that runs, and otherwise retries
 * every second.
 *
 * <p>Thread-safe for its one {@link #run}: requests are relayed on virtual threads; lines are written to
 * stdout one at a time under a lock, which is held only for the write.
 */
final class StdioBridge {
  private static final Logger log = LoggerFactory.getLogger(StdioBridge.class);
  private static final String SESSION = "Mcp-Session-Id";
  private static final Duration REPLAY_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration RELISTEN_AFTER = Duration.ofSeconds(1);

  private final HubLocator locator;
  private final Supplier<String> token;
  private final Writer out;
  private final HttpClient http;
  private final ReentrantLock writeLock = new ReentrantLock();
  private final ClientReplay replay = new ClientReplay();
  private final AtomicBoolean listening = new AtomicBoolean();
  private final AtomicReference<Recovery> recovery = new AtomicReference<>();

  private volatile URI endpoint;
  private volatile String session;
  private volatile String protocolVersion;
  private volatile Thread listener;

  /** A new session being started in place of {@code stale}; {@code next} completes with its id. */
  private record Recovery(String stale, CompletableFuture<String> next) {}

  /**
   * @param baseUrl the hub's base URL now
   * @param locator where the hub is when {@code baseUrl} stops answering
   */
  StdioBridge(String baseUrl, HubLocator locator, Supplier<String> token, Writer out) {
    this.endpoint = endpointOf(baseUrl);
    this.locator = locator;
    this.token = token;
    this.out = out;
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).executor(Executors.newVirtualThreadPerTaskExecutor()).build();
  }

  private static URI endpointOf(String baseUrl) {
    return URI.create(baseUrl.replaceAll("/+$", "") + McpServers.PATH);
  }

  /** Relays until {@code in} ends; returns 0. */
  int run(InputStream in) {
    try (ExecutorService requests = Executors.newVirtualThreadPerTaskExecutor();
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line; (line = reader.readLine()) != null; ) {
        if (line.isBlank()) {
          continue;
        }
        String message = line;
        if (session == null) {
          relay(message); // initialize: everything after it needs the session id it yields
        } else {
          requests.submit(() -> relay(message));
        }
      }
      requests.shutdown();
      requests.awaitTermination(30, TimeUnit.SECONDS);
    } catch (IOException e) {
      log.warn("reading stdin failed: {}", e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      close();
    }
    return 0;
  }

  private void relay(String line) {
    JsonNode message;
    try {
      message = Json.mapper().readTree(line);
    } catch (IOException e) {
      write(error(null, -32700, "Parse error: " + e.getMessage().lines().findFirst().orElse("")));
      return;
    }
    JsonNode id = message.get("id");
    boolean request = message.hasNonNull("method") && id != null;
    String method = message.path("method").asText("");
    try {
      replay.record(method, message, line);
      String used = session;
      HttpResponse<InputStream> response = postFollowingTheHub(line, used);
      if (response.statusCode() == 404 && used != null && !method.equals("initialize")) {
        response.body().close();
        renew(used);
        response = http.send(post(line).build(), HttpResponse.BodyHandlers.ofInputStream()); // once
      }
      response.headers().firstValue(SESSION).ifPresent(value -> {
        if (session == null) {
          session = value;
        }
      });
      String type = response.headers().firstValue("Content-Type").orElse("");
      try (InputStream body = response.body()) {
        if (type.startsWith("text/event-stream")) {
          readEvents(body);
        } else {
          byte[] bytes = body.readAllBytes();
          if (bytes.length > 0) {
            JsonNode answer = Json.mapper().readTree(bytes);
            if (response.statusCode() >= 400 && request && answer.path("id").isNull()) {
              ((ObjectNode) answer).set("id", id); // the hub's refusal, addressed to the request it refused
            }
            write(answer);
            rememberVersion(answer);
          } else if (response.statusCode() >= 400 && request) {
            write(error(id, -32603, "the hub answered HTTP " + response.statusCode()));
          }
        }
      }
      if (method.equals("initialize")) {
        listen();
      }
    } catch (IOException e) {
      log.warn("relaying to {} failed: {}", endpoint, e.toString());
      if (request) {
        write(error(id, -32603, "the hub at " + endpoint + " does not answer: " + e.getMessage()));
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
      return http.send(post(line).build(), HttpResponse.BodyHandlers.ofInputStream());
    } catch (IOException e) {
      if (!refused(e)) {
        throw e; // it may have reached the hub: never sent twice
      }
      log.info("the hub at {} refuses connections ({}); locating it again", endpoint, e.toString());
      if (used == null) {
        relocate(true);
      } else {
        renew(used);
      }
      return http.send(post(line).build(), HttpResponse.BodyHandlers.ofInputStream());
    }
  }

  private static boolean refused(IOException e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof ConnectException) {
        return true;
      }
    }
    return false;
  }

  /** Points the relay at wherever the locator says the hub is now. */
  private void relocate(boolean mayStart) throws IOException {
    URI found;
    try {
      found = endpointOf(locator.baseUrl(mayStart));
    } catch (RuntimeException e) {
      throw new IOException(e.getMessage(), e);
    }
    URI before = endpoint;
    if (!found.equals(before)) {
      log.info("the hub moved from {} to {}; relaying there", before, found);
      endpoint = found;
    }
  }

  /**
   * Replaces the session {@code stale}, which the hub answered 404 for or which no hub answers for any more,
   * with a new one on the hub where it is now, unless another thread already did or is doing it (then waits
   * for that one). A renewal that failed is tried again by the next caller. Returns the session to use now.
   */
  private String renew(String stale) throws IOException, InterruptedException {
    while (true) {
      Recovery current = recovery.get();
      if (current != null && current.stale().equals(stale) && !current.next().isCompletedExceptionally()) {
        return await(current.next());
      }
      String now = session;
      if (now != null && !now.equals(stale)) {
        return now; // replaced already
      }
      Recovery mine = new Recovery(stale, new CompletableFuture<>());
      if (recovery.compareAndSet(current, mine)) {
        try {
          mine.next().complete(reinitialize(stale));
        } catch (IOException | RuntimeException e) {
          mine.next().completeExceptionally(e);
        } catch (InterruptedException e) {
          mine.next().completeExceptionally(new IOException("the relay was interrupted while renewing session " + stale));
          throw e;
        }
        return await(mine.next());
      }
    }
  }

  private static String await(CompletableFuture<String> next) throws IOException, InterruptedException {
    try {
      return next.get();
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause().getMessage(), e.getCause());
    }
  }

  /** Starts a new session with the client's own initialize, and replays into it what the client told the old one. */
  private String reinitialize(String stale) throws IOException, InterruptedException {
    String hello = replay.initialize().orElseThrow(
        () -> new IOException("the hub does not know session " + stale + " and the client never initialized one"));
    relocate(true);
    // Without a session header, and without touching `session`: requests sent meanwhile still name the stale
    // session, get 404 (or a refused connection), and wait for this renewal in renew().
    HttpRequest start = HttpRequest.newBuilder(endpoint).header("Authorization", "Bearer " + token.get())
        .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
        .timeout(REPLAY_TIMEOUT).POST(HttpRequest.BodyPublishers.ofString(hello, StandardCharsets.UTF_8)).build();
    HttpResponse<InputStream> answer = http.send(start, HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream body = answer.body()) {
      body.readAllBytes(); // the client's answer to initialize came long ago; this one is the relay's
    }
    String fresh = answer.headers().firstValue(SESSION).orElse(null);
    if (answer.statusCode() != 200 || fresh == null) {
      throw new IOException("the hub forgot session " + stale + " and refused a new one (HTTP " + answer.statusCode() + ")");
    }
    session = fresh;
    for (String line : replay.afterInitialize()) {
      replay(line);
    }
    log.info("the hub at {} does not know MCP session {} (it expired, or the hub restarted): relaying to a new session {}",
        endpoint, stale, fresh);
    return fresh;
  }

  /** Sends a message the relay makes up for the hub, and drops the answer: the client never asked for it. */
  private void replay(String line) throws IOException, InterruptedException {
    HttpResponse<InputStream> answer = http.send(post(line).timeout(REPLAY_TIMEOUT).build(), HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream body = answer.body()) {
      body.readAllBytes();
    }
    if (answer.statusCode() >= 400) {
      log.warn("replaying {} into the new session failed: HTTP {}", line, answer.statusCode());
    }
  }

  private void rememberVersion(JsonNode answer) {
    JsonNode version = answer.path("result").path("protocolVersion");
    if (version.isTextual()) {
      protocolVersion = version.asText();
    }
  }

  private HttpRequest.Builder post(String line) {
    return request().header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(line, StandardCharsets.UTF_8));
  }

  private HttpRequest.Builder request() {
    HttpRequest.Builder builder = HttpRequest.newBuilder(endpoint).header("Authorization", "Bearer " + token.get());
    if (session != null) {
      builder.header(SESSION, session);
    }
    if (protocolVersion != null) {
      builder.header("MCP-Protocol-Version", protocolVersion);
    }
    return builder;
  }

  /** Writes each SSE event's data as one line, until the stream ends. */
  private void readEvents(InputStream body) throws IOException {
    BufferedReader events = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
    StringBuilder data = new StringBuilder();
    for (String line; (line = events.readLine()) != null; ) {
      if (line.isEmpty()) {
        if (!data.isEmpty()) {
          JsonNode message = Json.mapper().readTree(data.toString());
          rememberVersion(message);
          write(message);
          data.setLength(0);
        }
      } else if (line.startsWith("data:")) {
        if (!data.isEmpty()) {
          data.append('\n');
        }
        data.append(line.substring(line.startsWith("data: ") ? 6 : 5));
      }
    }
  }

  /**
   * Opens the GET stream for the server's own messages, once the session exists, and waits (up to 10 s)
   * until the hub has answered it, so that nothing the client asks for next misses it. It is reopened if it
   * drops, and on a 404 the session is renewed first.
   */
  private void listen() throws InterruptedException {
    CountDownLatch open = new CountDownLatch(1);
    if (session == null || !listening.compareAndSet(false, true)) {
      return;
    }
    listener = Thread.ofVirtual().name("mcp-stdio-listen").start(() -> listenUntilInterrupted(open));
    open.await(10, TimeUnit.SECONDS);
  }

  private void listenUntilInterrupted(CountDownLatch open) {
    while (!Thread.currentThread().isInterrupted()) {
      String used = session;
      try {
        HttpResponse<InputStream> response =
            http.send(request().header("Accept", "text/event-stream").GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        open.countDown();
        if (response.statusCode() == 404 && used != null) {
          response.body().close();
          renew(used); // replays the subscriptions; then listen on the new session
          continue;
        }
        if (response.statusCode() != 200) {
          log.debug("the hub refused the listening stream: HTTP {}", response.statusCode());
          response.body().close();
          return;
        }
        try (InputStream body = response.body()) {
          readEvents(body);
        }
      } catch (IOException e) {
        open.countDown();
        log.debug("listening stream ended: {}", e.toString());
        if (refused(e) && used != null && followRunningHub(used)) {
          continue;
        }
        try {
          Thread.sleep(RELISTEN_AFTER); // back off before reopening
        } catch (InterruptedException interrupted) {
          return;
        }
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /**
   * For the listening stream, whose connection was refused: when a hub runs (the locator starts none), renews
   * the session {@code used} on it and returns true, so the subscriptions resume without waiting for the
   * client's next request.
   */
  private boolean followRunningHub(String used) {
    try {
      locator.baseUrl(false);
      renew(used);
      return true;
    } catch (RuntimeException | IOException e) {
      log.debug("no hub to follow yet: {}", e.getMessage());
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the relay is closing: the back-off sleep ends the loop at once
      return false;
    }
  }

  /** The session the relay speaks for now (tests). */
  String session() {
    return session;
  }

  private static ObjectNode error(JsonNode id, int code, String message) {
    ObjectNode answer = Json.mapper().createObjectNode().put("jsonrpc", "2.0");
    answer.set("id", id);
    answer.putObject("error").put("code", code).put("message", message);
    return answer;
  }

  private void write(JsonNode message) {
    String line = Json.write(message);
    writeLock.lock();
    try {
      out.write(line);
      out.write('\n');
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("stdout is closed", e);
    } finally {
      writeLock.unlock();
    }
  }

  private void close() {
    Thread listening = listener;
    if (listening != null) {
      listening.interrupt();
    }
    if (session != null) {
      try {
        http.send(request().DELETE().build(), HttpResponse.BodyHandlers.discarding());
      } catch (IOException e) {
        log.debug("deleting the session failed: {}", e.toString());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    http.close();
  }
}
