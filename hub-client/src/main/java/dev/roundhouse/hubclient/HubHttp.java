package dev.roundhouse.hubclient;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * A connection to a running hub's HTTP API: {@code POST /api/ops/{name}}, {@code GET /api/ops} and the
 * event streams, as text and JSON trees; {@link RemoteHub} adds typed calls over it. Used by the CLI and
 * the editor faces (LSP, ACP). The
 * hub is found through the locator, and found again after a refused connection (a restarted hub may listen
 * elsewhere; the request is sent again only when it now has another address). A hub error answer becomes
 * a {@link HubErrorException} with the hub's sentence; a hub that cannot be reached becomes a
 * {@link HubUnavailableException} whose {@link HubUnavailableException#reason() reason} says whether the
 * request was sent.
 *
 * <p>Interrupting the thread that waits for an answer aborts the request (the JDK's client cancels the
 * exchange and closes its connection): that is how a cancelled LSP request cancels its hub call. Closing
 * the connection aborts every response still being read.
 *
 * <p>The {@link HttpClient} is made at the first request, not with the connection: building one costs a fresh
 * JVM about half a second of CPU (its TLS defaults load the CA certificates even for {@code http://}), and an
 * editor face answers its {@code initialize} before it asks the hub anything (docs/performance.md).
 *
 * <p>Thread-safe: one {@link HttpClient}, published through an {@link AtomicReference} (two first requests at
 * once may each build one; the one that loses closes its own); the current address is a volatile field.
 */
public final class HubHttp implements AutoCloseable {
  public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  /** How long the editor faces wait for an operation. */
  public static final Duration EDITOR_OPERATION_TIMEOUT = Duration.ofMinutes(5);

  private final Supplier<HubAddress> locator;
  private final String userAgent;
  private final Duration operationTimeout;
  private final AtomicReference<HttpClient> http = new AtomicReference<>();
  private volatile boolean closed;
  private volatile HubAddress address;

  /**
   * A connection for the editor faces (LSP and ACP): sends {@code User-Agent: roundhouse-lsp} and waits up
   * to {@link #EDITOR_OPERATION_TIMEOUT} for an operation.
   */
  public static HubHttp editorFace(Supplier<HubAddress> locator) {
    return new HubHttp(locator, "roundhouse-lsp", EDITOR_OPERATION_TIMEOUT);
  }

  /**
   * @param locator finds the hub; throws {@link HubUnavailableException} when none runs
   * @param userAgent the {@code User-Agent} sent, naming the face
   * @param operationTimeout how long to wait for an operation's answer
   */
  public HubHttp(Supplier<HubAddress> locator, String userAgent, Duration operationTimeout) {
    this.locator = locator;
    this.userAgent = userAgent;
    this.operationTimeout = operationTimeout;
  }

  /** The HTTP client, built at the first request. */
  private HttpClient client() throws IOException {
    HttpClient known = http.get();
    if (known != null) {
      return known;
    }
    if (closed) {
      throw new IOException("the connection to the hub is closed");
    }
    HttpClient fresh =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(CONNECT_TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
    HttpClient winner = http.compareAndExchange(null, fresh);
    if (winner != null) {
      fresh.close();
      return winner;
    }
    if (closed) { // closed while it was being built: nobody else will close it
      fresh.shutdownNow();
      fresh.close();
      throw new IOException("the connection to the hub is closed");
    }
    return fresh;
  }

  /** The hub's address, located now if not yet known. */
  public HubAddress address() {
    HubAddress known = address;
    if (known == null) {
      known = locator.get();
      address = known;
    }
    return known;
  }

  /** Runs operation {@code name} with {@code input} (a JSON object as text) and returns its output as text. */
  public String call(String name, String input) {
    return sendOrRelocate(
        () ->
            request("/api/ops/" + URLEncoder.encode(name, StandardCharsets.UTF_8))
                .timeout(operationTimeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(input, StandardCharsets.UTF_8))
                .build(),
        name);
  }

  /** Every operation's descriptor ({@code GET /api/ops}) as text. */
  public String operations() {
    return sendOrRelocate(() -> request("/api/ops").header("Accept", "application/json").GET().build(), "the operation list");
  }

  /**
   * Runs operation {@code name} and parses its output.
   *
   * @param input a record or map of the operation's input (serialized with the hub's JSON settings), or null
   */
  public JsonNode callTree(String name, Object input) {
    String output = call(name, input == null ? "{}" : Json.write(input));
    try {
      return Json.mapper().readTree(output);
    } catch (JsonProcessingException e) {
      throw new HubErrorException(
          502, "bad_response", "the hub at " + address().url() + " answered " + name + " with something that is not JSON: " + e.getOriginalMessage());
    }
  }

  /**
   * Opens the global event stream after {@code after} (live from now when null). Returns once the hub has
   * answered, so no event published afterwards is missed.
   */
  public InputStream openEvents(Long after) {
    return openStream("/api/events" + (after == null ? "" : "?after=" + after), after, "the event stream");
  }

  /**
   * Opens the global event stream: every event after {@code after}, and then live ones unless
   * {@code follow} is false (then the hub ends the response with an {@code end} event once the replay has
   * caught up).
   *
   * @param lastEventId sent as {@code Last-Event-ID} when resuming after a drop; the hub prefers it to
   *     {@code after}
   */
  public InputStream openEvents(long after, boolean follow, Long lastEventId) {
    return openStream("/api/events?after=" + after + (follow ? "" : "&follow=false"), lastEventId, "the event stream");
  }

  /**
   * Opens one task's event stream after {@code after} (its current generation when null): its stored events
   * and, live, its transient ones (text deltas, without an id). Returns once the hub has answered.
   */
  public InputStream openTaskEvents(long task, Long after) {
    return openStream("/api/tasks/" + task + "/stream" + (after == null ? "" : "?after=" + after), after, "task " + task + "'s event stream");
  }

  /**
   * The sequence number of the newest stored event: read from the header comment the hub writes first on a
   * live stream ({@code : roundhouse events after N}).
   */
  public long latestSeq() {
    try (InputStream body = openEvents(null)) {
      SseReader reader = new SseReader(body);
      while (true) {
        Optional<SseReader.Item> item = reader.next();
        if (item.isEmpty()) {
          break;
        }
        if (item.get() instanceof SseReader.Comment comment && comment.text().startsWith("roundhouse events after ")) {
          return Long.parseLong(comment.text().substring("roundhouse events after ".length()).strip());
        }
      }
    } catch (IOException | NumberFormatException e) {
      throw new HubErrorException(502, "bad_response", "the hub's event stream did not say where it starts: " + e.getMessage());
    }
    throw new HubErrorException(502, "bad_response", "the hub's event stream did not say where it starts");
  }

  private InputStream openStream(String path, Long lastEventId, String what) {
    HttpRequest.Builder builder = request(path).header("Accept", "text/event-stream").GET();
    if (lastEventId != null) {
      builder.header("Last-Event-ID", Long.toString(lastEventId));
    }
    HttpResponse<InputStream> response = send(builder.build(), HttpResponse.BodyHandlers.ofInputStream(), what);
    if (response.statusCode() != 200) {
      String body;
      try (InputStream in = response.body()) {
        body = new String(in.readNBytes(64 * 1024), StandardCharsets.UTF_8);
      } catch (IOException e) {
        body = "";
      }
      throw hubError(response, body, what);
    }
    return response.body();
  }

  /**
   * Sends the request; after a refused connection, finds the hub again and, when it now has another
   * address, sends the request there once.
   */
  private String sendOrRelocate(Supplier<HttpRequest> request, String what) {
    HttpResponse<String> response;
    try {
      response = send(request.get(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8), what);
    } catch (HubUnavailableException refused) {
      HubAddress tried = address;
      if (!refused.neverSent() || Thread.currentThread().isInterrupted()) {
        throw refused; // it may have been done, or it was cancelled: never send it twice
      }
      address = null; // the hub may have restarted elsewhere: look again
      if (tried != null && tried.url().equals(address().url())) {
        throw refused;
      }
      response = send(request.get(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8), what);
    }
    if (response.statusCode() != 200) {
      throw hubError(response, response.body(), what);
    }
    return response.body();
  }

  private HttpRequest.Builder request(String path) {
    HubAddress hub = address();
    return HttpRequest.newBuilder(URI.create(hub.url() + path))
        .header("Authorization", "Bearer " + hub.token())
        .header("User-Agent", userAgent);
  }

  private <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler, String what) {
    String url = origin(request.uri());
    try {
      return client().send(request, handler);
    } catch (HttpConnectTimeoutException e) {
      throw new HubUnavailableException(
          HubUnavailableException.Reason.NO_CONNECTION, "no hub answers at " + url + " (no connection within " + CONNECT_TIMEOUT.toSeconds() + " s)", e);
    } catch (HttpTimeoutException e) {
      throw new HubErrorException(504, "timeout", "the hub at " + url + " did not answer " + what + " within " + operationTimeout.toSeconds() + " s");
    } catch (IOException e) {
      if (causedBy(e, ConnectException.class)) {
        throw new HubUnavailableException(
            HubUnavailableException.Reason.REFUSED, "no hub answers at " + url + " (connection refused); start one with roundhouse serve", e);
      }
      throw new HubUnavailableException(
          HubUnavailableException.Reason.LOST, "lost the connection to the hub at " + url + " during " + what + ": " + (e.getMessage() == null ? e : e.getMessage()), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new HubUnavailableException(HubUnavailableException.Reason.INTERRUPTED, "interrupted while waiting for the hub to answer " + what, e);
    }
  }

  /** The hub's {@code {"error": {...}}} answer as an exception with its sentence, or a description of what came. */
  private static HubErrorException hubError(HttpResponse<?> response, String body, String what) {
    int status = response.statusCode();
    try {
      JsonNode error = Json.mapper().readTree(body).path("error");
      if (error.path("message").isTextual()) {
        return new HubErrorException(status, error.path("code").asText("error"), error.get("message").asText());
      }
    } catch (IOException | IllegalArgumentException e) {
      // Not the hub's error shape; describe what came instead.
    }
    String excerpt = body.strip();
    if (excerpt.length() > 200) {
      excerpt = excerpt.substring(0, 200) + "…";
    }
    return new HubErrorException(
        status, "http_" + status, "the hub at " + origin(response.uri()) + " answered " + what + " with HTTP " + status + (excerpt.isEmpty() ? "" : ": " + excerpt));
  }

  private static String origin(URI uri) {
    return uri.getScheme() + "://" + uri.getAuthority();
  }

  private static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void close() {
    closed = true;
    HttpClient client = http.get();
    if (client != null) {
      client.shutdownNow();
      client.close();
    }
  }
}
