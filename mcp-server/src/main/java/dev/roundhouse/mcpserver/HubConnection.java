package dev.roundhouse.mcpserver;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stdio relay's link to the hub's {@code /mcp}: where the hub is now, the MCP session the relay speaks
 * for, the protocol version the client negotiated, and the HTTP client that carries every request. Each
 * request it builds names the session and the version as they are at that moment, with the MCP token read
 * afresh (so a rotated token applies at once). It moves to wherever the {@link HubLocator} says the hub is
 * ({@link #relocate}); it never decides when to, that is {@link StdioBridge}'s and {@link SessionRenewal}'s.
 *
 * <p>The endpoint may be unknown at first (the relay then finds the hub at its first request, after it answered
 * the client's {@code initialize} itself), and the HTTP client is built at the first request: building one costs
 * a fresh JVM about half a second of CPU (docs/performance.md).
 *
 * <p>Thread-safe: the endpoint, the session and the version are volatile fields, read by the relay's request
 * threads and its listening thread and replaced by whichever of them renews the session; the HTTP client is
 * published through an {@link AtomicReference} (of two built at once, the one that loses is closed); no lock.
 */
final class HubConnection implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(HubConnection.class);
  static final String SESSION = "Mcp-Session-Id";

  private final HubLocator locator;
  private final Supplier<String> token;
  private final AtomicReference<HttpClient> http = new AtomicReference<>();
  private volatile boolean closed;

  private volatile URI endpoint;
  private volatile String session;
  private volatile String protocolVersion;

  /**
   * @param baseUrl the hub's base URL now, or null to ask the locator at the first request ({@link #locate})
   * @param locator where the hub is when {@code baseUrl} stops answering
   * @param token the MCP token, read for each request
   */
  HubConnection(String baseUrl, HubLocator locator, Supplier<String> token) {
    this.endpoint = baseUrl == null ? null : endpointOf(baseUrl);
    this.locator = locator;
    this.token = token;
  }

  /** The HTTP client, built at the first request. */
  private HttpClient client() throws IOException {
    HttpClient known = http.get();
    if (known != null) {
      return known;
    }
    if (closed) {
      throw new IOException("the relay is closed");
    }
    HttpClient fresh = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).executor(Executors.newVirtualThreadPerTaskExecutor()).build();
    HttpClient winner = http.compareAndExchange(null, fresh);
    if (winner != null) {
      fresh.close();
      return winner;
    }
    if (closed) { // closed while it was being built: nobody else will close it
      fresh.close();
      throw new IOException("the relay is closed");
    }
    return fresh;
  }

  /** Finds the hub (starting one if none runs) when the relay does not know where it is yet. */
  void locate() throws IOException {
    if (endpoint == null) {
      relocate(true);
    }
  }

  private static URI endpointOf(String baseUrl) {
    return URI.create(baseUrl.replaceAll("/+$", "") + McpServers.PATH);
  }

  URI endpoint() {
    return endpoint;
  }

  /** The session the relay speaks for now, or null before {@code initialize} was answered. */
  String session() {
    return session;
  }

  /** Takes the session id the hub gave in {@code response}, if the relay has none yet. */
  void adoptSession(HttpResponse<?> response) {
    response.headers().firstValue(SESSION).ifPresent(value -> {
      if (session == null) {
        session = value;
      }
    });
  }

  /** Speaks for {@code fresh} from now on, in place of a session the hub forgot. */
  void replaceSession(String fresh) {
    session = fresh;
  }

  /** Remembers the protocol version an {@code initialize} answer carries, for the header of later requests. */
  void rememberVersion(JsonNode answer) {
    JsonNode version = answer.path("result").path("protocolVersion");
    if (version.isTextual()) {
      protocolVersion = version.asText();
    }
  }

  /** A POST of one JSON-RPC message, in the session. */
  HttpRequest.Builder post(String line) {
    return request().header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(line, StandardCharsets.UTF_8));
  }

  /** A POST of {@code initialize} that starts a new session: no session header, no protocol version. */
  HttpRequest.Builder postWithoutSession(String initialize) {
    return HttpRequest.newBuilder(endpoint).header("Authorization", "Bearer " + token.get())
        .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(initialize, StandardCharsets.UTF_8));
  }

  /** The GET that opens the session's stream of the server's own messages. */
  HttpRequest.Builder listen() {
    return request().header("Accept", "text/event-stream").GET();
  }

  private HttpRequest.Builder request() {
    HttpRequest.Builder builder = HttpRequest.newBuilder(endpoint).header("Authorization", "Bearer " + token.get());
    String current = session;
    if (current != null) {
      builder.header(SESSION, current);
    }
    String version = protocolVersion;
    if (version != null) {
      builder.header("MCP-Protocol-Version", version);
    }
    return builder;
  }

  /** Sends {@code request}; the body is the caller's to read and close. */
  HttpResponse<InputStream> send(HttpRequest request) throws IOException, InterruptedException {
    return client().send(request, HttpResponse.BodyHandlers.ofInputStream());
  }

  /** Sends {@code request} and reads its answer to the end, for an answer nobody is waiting for. */
  int sendDiscarding(HttpRequest request) throws IOException, InterruptedException {
    HttpResponse<InputStream> answer = send(request);
    try (InputStream body = answer.body()) {
      body.readAllBytes();
    }
    return answer.statusCode();
  }

  /** Whether {@code e} says that no hub accepted the connection (so the request never reached one). */
  static boolean refused(IOException e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof ConnectException) {
        return true;
      }
    }
    return false;
  }

  /**
   * Points the relay at wherever the locator says the hub is now.
   *
   * @param mayStart whether the locator may start a hub when none runs
   * @throws IOException with the locator's sentence when no hub can be found
   */
  void relocate(boolean mayStart) throws IOException {
    URI found;
    try {
      found = endpointOf(locator.baseUrl(mayStart));
    } catch (RuntimeException e) {
      throw new IOException(e.getMessage(), e);
    }
    URI before = endpoint;
    if (before == null) {
      endpoint = found;
    } else if (!found.equals(before)) {
      log.info("the hub moved from {} to {}; relaying there", before, found);
      endpoint = found;
    }
  }

  /** Whether a hub runs for the relay's home now; never starts one, and leaves the endpoint as it is. */
  boolean hubRuns() {
    try {
      locator.baseUrl(false);
      return true;
    } catch (RuntimeException e) {
      log.debug("no hub to follow yet: {}", e.getMessage());
      return false;
    }
  }

  /** Deletes the session on the hub, if there is one, and closes the HTTP client. */
  @Override
  public void close() {
    if (session != null) {
      try {
        client().send(request().DELETE().build(), HttpResponse.BodyHandlers.discarding());
      } catch (IOException e) {
        log.debug("deleting the session failed: {}", e.toString());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    closed = true;
    HttpClient client = http.get();
    if (client != null) {
      client.close();
    }
  }
}
