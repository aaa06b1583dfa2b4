package dev.roundhouse.hub.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Reads a Server-Sent Events response on a virtual thread into a queue of parsed events. Thread-safe.
 */
public final class SseTestClient implements AutoCloseable {
  /** One parsed event; {@code id} is null when the event had none. */
  public record SseEvent(String id, String event, String data) {
    public JsonNode json() {
      try {
        return Json.mapper().readTree(data);
      } catch (IOException e) {
        throw new AssertionError("not JSON: " + data, e);
      }
    }
  }

  private static final SseEvent END = new SseEvent(null, "<end of response>", "");

  private final BlockingQueue<SseEvent> events = new LinkedBlockingQueue<>();
  private final InputStream body;
  private final int status;
  private final Thread reader;

  private SseTestClient(HttpResponse<InputStream> response) {
    this.status = response.statusCode();
    this.body = response.body();
    this.reader = Thread.ofVirtual().start(this::read);
  }

  /** Opens {@code path} with the token and any extra header pairs. */
  public static SseTestClient open(HttpTestClient http, String path, String... headers) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(http.base() + path))
        .header("Authorization", "Bearer " + http.token())
        .header("Accept", "text/event-stream");
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    try {
      return new SseTestClient(HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofInputStream()));
    } catch (IOException e) {
      throw new AssertionError(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  public int status() {
    return status;
  }

  /** The next event, failing the test if none arrives within {@code timeout}. */
  public SseEvent next(Duration timeout) {
    try {
      SseEvent event = events.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
      if (event == null) {
        throw new AssertionError("no event within " + timeout);
      }
      if (event == END) {
        events.add(END);
      }
      return event;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** True once the server ended the response and every event before that was taken. */
  public boolean ended(Duration timeout) {
    return next(timeout) == END;
  }

  private void read() {
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
      String id = null;
      String event = null;
      StringBuilder data = new StringBuilder();
      for (String line; (line = lines.readLine()) != null; ) {
        if (line.isEmpty()) {
          if (event != null || !data.isEmpty()) {
            events.add(new SseEvent(id, event == null ? "message" : event, data.toString()));
          }
          id = null;
          event = null;
          data.setLength(0);
        } else if (line.startsWith("id: ")) {
          id = line.substring(4);
        } else if (line.startsWith("event: ")) {
          event = line.substring(7);
        } else if (line.startsWith("data: ")) {
          data.append(data.isEmpty() ? "" : "\n").append(line.substring(6));
        }
      }
    } catch (IOException e) {
      // closed
    }
    events.add(END);
  }

  @Override
  public void close() {
    try {
      body.close();
    } catch (IOException e) {
      // already closed
    }
    reader.interrupt();
  }
}
