package dev.roundhouse.hub.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/** A plain java.net.http client for a test hub, with the token set. Thread-safe. */
public final class HttpTestClient implements AutoCloseable {
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final String base;
  private final String token;

  /** A response: status and parsed JSON body. */
  public record Reply(int status, JsonNode body, HttpResponse<String> raw) {
    public String errorCode() {
      return body.path("error").path("code").asText(null);
    }

    public String errorMessage() {
      return body.path("error").path("message").asText(null);
    }
  }

  public HttpTestClient(String base, String token) {
    this.base = base;
    this.token = token;
  }

  public String base() {
    return base;
  }

  public String token() {
    return token;
  }

  /** Runs an operation and returns its output, failing the test on an error. */
  public JsonNode op(String name, Object input) {
    Reply reply = post("/api/ops/" + name, Json.write(input));
    if (reply.status() != 200) {
      throw new AssertionError(name + " failed: " + reply.status() + " " + reply.body());
    }
    return reply.body();
  }

  public Reply post(String path, String body) {
    return send(request(path).POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json"));
  }

  public Reply get(String path) {
    return send(request(path).GET());
  }

  public HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(base + path))
        .timeout(Duration.ofSeconds(30))
        .header("Authorization", "Bearer " + token);
  }

  /** Sends a request built from scratch (for header matrices). */
  public Reply send(HttpRequest.Builder request) {
    try {
      HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      String text = response.body();
      JsonNode body = text.isBlank() ? Json.mapper().createObjectNode() : Json.mapper().readTree(text);
      return new Reply(response.statusCode(), body, response);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  public HttpClient raw() {
    return http;
  }

  @Override
  public void close() {
    http.close();
  }

  public static Map<String, Object> map(Object... keysAndValues) {
    java.util.LinkedHashMap<String, Object> map = new java.util.LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }
}
