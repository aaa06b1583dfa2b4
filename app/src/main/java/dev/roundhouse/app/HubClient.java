package dev.roundhouse.app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.Json;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The CLI's connection to a running hub: operations as {@code POST /api/ops/{name}} with a JSON body and the
 * bearer token, and the event stream as {@code GET /api/events}. A hub error answer becomes a
 * {@link CliFailure} carrying the hub's message (exit 1); a hub that cannot be reached becomes one with
 * {@link ExitCode#NO_HUB}.
 *
 * <p>Thread-safe (one {@link HttpClient}); close it when done, which stops the client's threads and aborts
 * any response still being read.
 */
final class HubClient implements AutoCloseable {
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(60);

  private final HubEndpoint endpoint;
  private final HttpClient http;

  HubClient(HubEndpoint endpoint) {
    this.endpoint = endpoint;
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(CONNECT_TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  /** Finds the hub for {@code context} and connects to it. */
  static HubClient attach(Context context) {
    return new HubClient(HubEndpoint.locate(context));
  }

  HubEndpoint endpoint() {
    return endpoint;
  }

  /**
   * Calls operation {@code name}.
   *
   * @param input a record of the operation's input (serialized with the hub's JSON settings), or null
   * @return the operation's output as the hub sent it
   */
  JsonNode call(String name, Object input) {
    String body = input == null ? "{}" : Json.write(input);
    HttpRequest request =
        request("/api/ops/" + name)
            .timeout(OPERATION_TIMEOUT)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
            .build();
    HttpResponse<String> response = send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8), name);
    if (response.statusCode() != 200) {
      throw hubError(response.statusCode(), response.body(), name);
    }
    try {
      return Json.mapper().readTree(response.body());
    } catch (JsonProcessingException e) {
      throw new CliFailure(
          ExitCode.FAILED, "bad_response", "the hub at " + endpoint.url() + " answered " + name + " with something that is not JSON: " + e.getOriginalMessage());
    }
  }

  /**
   * Opens the event stream: every event after {@code after}, and then live ones unless {@code follow} is
   * false ({@code follow=false}: the hub ends the response once the replay has caught up).
   *
   * @param lastEventId sent as {@code Last-Event-ID} when resuming after a drop; the hub prefers it to
   *     {@code after}
   */
  InputStream openEvents(long after, boolean follow, Long lastEventId) {
    return openStream("/api/events?after=" + after + (follow ? "" : "&follow=false"), lastEventId, "the event stream");
  }

  /**
   * Opens one task's event stream ({@code GET /api/tasks/{id}/stream}): its current generation's events,
   * then live ones, text deltas included (those come without an id). Returns once the hub is subscribed.
   */
  InputStream openTaskEvents(long task) {
    return openStream("/api/tasks/" + task + "/stream", null, "task " + task + "'s event stream");
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
      throw hubError(response.statusCode(), body, what);
    }
    return response.body();
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(endpoint.url() + path))
        .header("Authorization", "Bearer " + endpoint.token())
        .header("User-Agent", "roundhouse-cli");
  }

  private <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler, String what) {
    try {
      return http.send(request, handler);
    } catch (HttpConnectTimeoutException e) {
      throw endpoint.unreachable("no connection within " + CONNECT_TIMEOUT.toSeconds() + " s");
    } catch (HttpTimeoutException e) {
      throw new CliFailure(
          ExitCode.FAILED, "timeout", "the hub at " + endpoint.url() + " did not answer " + what + " within " + OPERATION_TIMEOUT.toSeconds() + " s");
    } catch (IOException e) {
      if (causedBy(e, ConnectException.class)) {
        throw endpoint.unreachable("connection refused");
      }
      throw new CliFailure(
          ExitCode.NO_HUB, "hub_unreachable", "lost the connection to the hub at " + endpoint.url() + " during " + what + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliFailure(ExitCode.FAILED, "interrupted", "interrupted while waiting for the hub to answer " + what, e);
    }
  }

  /** The hub's {@code {"error": {...}}} answer as a failure with its message, or a description of what came. */
  private CliFailure hubError(int status, String body, String what) {
    try {
      JsonNode error = Json.mapper().readTree(body).path("error");
      if (error.path("message").isTextual()) {
        return new CliFailure(ExitCode.FAILED, error.path("code").asText("error"), error.get("message").asText());
      }
    } catch (JsonProcessingException | IllegalArgumentException e) {
      // Not the hub's error shape; describe what came instead.
    }
    String excerpt = body.strip();
    if (excerpt.length() > 200) {
      excerpt = excerpt.substring(0, 200) + "…";
    }
    return new CliFailure(
        ExitCode.FAILED,
        "http_" + status,
        "the hub at " + endpoint.url() + " answered " + what + " with HTTP " + status + (excerpt.isEmpty() ? "" : ": " + excerpt));
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
