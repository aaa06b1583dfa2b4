package dev.roundhouse.lspbridge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.Json;
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
import java.util.function.Supplier;

/**
 * The bridge's connection to the hub's HTTP API: {@code POST /api/ops/{name}}, {@code GET /api/ops} and the
 * event stream. The hub is found through the locator, again after a refused connection (a restarted hub
 * may listen elsewhere). A hub error answer becomes a {@link HubErrorException} with the hub's sentence; a
 * hub that cannot be reached becomes a {@link HubUnavailableException}.
 *
 * <p>A trimmed copy of the CLI's {@code HubClient} (the app module depends on this one, not the reverse).
 *
 * <p>Interrupting the thread that waits for an answer aborts the request (the JDK's client cancels the
 * exchange and closes its connection): that is how a cancelled LSP request cancels its hub call.
 *
 * <p>Thread-safe: one {@link HttpClient}; the current address is a volatile field.
 */
final class HubHttp implements AutoCloseable {
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  static final Duration OPERATION_TIMEOUT = Duration.ofMinutes(5);

  private final Supplier<HubAddress> locator;
  private final HttpClient http;
  private volatile HubAddress address;

  HubHttp(Supplier<HubAddress> locator) {
    this.locator = locator;
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(CONNECT_TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  /** The hub's address, located now if not yet known. */
  HubAddress address() {
    HubAddress known = address;
    if (known == null) {
      known = locator.get();
      address = known;
    }
    return known;
  }

  /** Runs operation {@code name} with {@code input} (a JSON object as text) and returns its output as text. */
  String call(String name, String input) {
    return sendOrRelocate(
        () ->
            request("/api/ops/" + URLEncoder.encode(name, StandardCharsets.UTF_8))
                .timeout(OPERATION_TIMEOUT)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(input, StandardCharsets.UTF_8))
                .build(),
        name);
  }

  /** Every operation's descriptor ({@code GET /api/ops}) as text. */
  String operations() {
    return sendOrRelocate(() -> request("/api/ops").header("Accept", "application/json").GET().build(), "the operation list");
  }

  /** Runs operation {@code name} and parses its output. */
  JsonNode callTree(String name, Object input) {
    String output = call(name, input == null ? "{}" : Json.write(input));
    try {
      return Json.mapper().readTree(output);
    } catch (IOException e) {
      throw new HubErrorException(502, "bad_response", "the hub answered " + name + " with something that is not JSON");
    }
  }

  /**
   * Opens the global event stream after {@code after} (live from now when null). Returns once the hub has
   * answered, so no event published afterwards is missed.
   */
  InputStream openEvents(Long after) {
    return openStream("/api/events", after);
  }

  /**
   * Opens one task's event stream after {@code after} (its current generation when null): its stored events
   * and, live, its transient ones (text deltas, without an id). Returns once the hub has answered.
   */
  InputStream openTaskEvents(long task, Long after) {
    return openStream("/api/tasks/" + task + "/stream", after);
  }

  /**
   * The sequence number of the newest stored event: read from the header comment the hub writes first on a
   * live stream ({@code : roundhouse events after N}).
   */
  long latestSeq() {
    try (InputStream body = openStream("/api/events", null)) {
      SseReader reader = new SseReader(body);
      while (true) {
        java.util.Optional<SseReader.Item> item = reader.next();
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

  private InputStream openStream(String path, Long after) {
    HttpRequest.Builder builder = request(path + (after == null ? "" : "?after=" + after)).header("Accept", "text/event-stream").GET();
    if (after != null) {
      builder.header("Last-Event-ID", Long.toString(after));
    }
    HttpRequest request = builder.build();
    HttpResponse<InputStream> response = send(request, HttpResponse.BodyHandlers.ofInputStream(), "the event stream");
    if (response.statusCode() != 200) {
      String body;
      try (InputStream in = response.body()) {
        body = new String(in.readNBytes(64 * 1024), StandardCharsets.UTF_8);
      } catch (IOException e) {
        body = "";
      }
      throw hubError(response.statusCode(), body, "the event stream");
    }
    return response.body();
  }

  private String sendOrRelocate(Supplier<HttpRequest> request, String what) {
    HttpResponse<String> response;
    try {
      response = send(request.get(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8), what);
    } catch (HubUnavailableException refused) {
      if (Thread.currentThread().isInterrupted()) {
        throw refused; // cancelled: the request was aborted, not refused
      }
      address = null; // the hub may have restarted elsewhere: look again, once
      response = send(request.get(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8), what);
    }
    if (response.statusCode() != 200) {
      throw hubError(response.statusCode(), response.body(), what);
    }
    return response.body();
  }

  private HttpRequest.Builder request(String path) {
    HubAddress hub = address();
    return HttpRequest.newBuilder(URI.create(hub.url() + path))
        .header("Authorization", "Bearer " + hub.token())
        .header("User-Agent", "roundhouse-lsp");
  }

  private <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler, String what) {
    String url = request.uri().getScheme() + "://" + request.uri().getAuthority();
    try {
      return http.send(request, handler);
    } catch (HttpConnectTimeoutException e) {
      throw new HubUnavailableException("no hub answers at " + url + " (no connection within " + CONNECT_TIMEOUT.toSeconds() + " s)", e);
    } catch (HttpTimeoutException e) {
      throw new HubErrorException(504, "timeout", "the hub at " + url + " did not answer " + what + " within " + OPERATION_TIMEOUT.toSeconds() + " s");
    } catch (IOException e) {
      if (causedBy(e, ConnectException.class)) {
        throw new HubUnavailableException("no hub answers at " + url + " (connection refused); start one with roundhouse serve", e);
      }
      throw new HubUnavailableException("lost the connection to the hub at " + url + " during " + what + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new HubUnavailableException("interrupted while waiting for the hub to answer " + what, e);
    }
  }

  /** The hub's {@code {"error": {...}}} answer as an exception with its sentence, or a description of what came. */
  private static HubErrorException hubError(int status, String body, String what) {
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
    return new HubErrorException(status, "http_" + status, "the hub answered " + what + " with HTTP " + status + (excerpt.isEmpty() ? "" : ": " + excerpt));
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
    http.shutdownNow();
    http.close();
  }
}
