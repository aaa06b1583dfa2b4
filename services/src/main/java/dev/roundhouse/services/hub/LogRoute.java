package dev.roundhouse.services.hub;

import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.services.LogChunk;
import dev.roundhouse.services.LogLine;
import dev.roundhouse.services.ServiceException;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.Methods;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Deque;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * {@code GET /api/x/services/{project}/{service}/logs?after=N&follow=1}: a service's log as Server-Sent Events.
 * Each line is an event {@code line} whose id is its offset (so {@code Last-Event-ID} resumes after it); lines
 * the bounded log dropped before this reader got to them arrive as one event {@code skipped} with
 * {@code missed}. Without {@code after}, the last {@code tail} lines (default 200). With {@code follow=1} the
 * stream stays open for new lines (a comment every {@code keepAlive} when quiet); without, it ends once caught
 * up. The hub has checked the token, origin and host before this runs, on a virtual thread of its own.
 *
 * <p>Thread-safe: stateless; each request reads the supervisor's log on its own thread.
 */
final class LogRoute implements HttpHandler {
  static final String PREFIX = "/api/x/services/";
  private static final int BATCH = 500;
  private static final Duration POLL = Duration.ofMillis(500);

  private final HubServices services;
  private final Duration keepAlive;
  private final BooleanSupplier closed;

  LogRoute(HubServices services, Duration keepAlive, BooleanSupplier closed) {
    this.services = services;
    this.keepAlive = keepAlive;
    this.closed = closed;
  }

  @Override
  public void handleRequest(HttpServerExchange exchange) throws Exception {
    String[] parts = exchange.getRequestPath().substring(PREFIX.length()).split("/");
    if (parts.length != 3 || !parts[2].equals("logs")) {
      send(exchange, 404, "unknown_route", "no route " + exchange.getRequestPath()
          + "; a service's log is " + PREFIX + "{project}/{service}/logs (docs/http.md)");
      return;
    }
    if (!exchange.getRequestMethod().equals(Methods.GET)) {
      exchange.getResponseHeaders().put(Headers.ALLOW, "GET");
      send(exchange, 405, "method_not_allowed", exchange.getRequestMethod() + " is not allowed on a log; use GET");
      return;
    }
    Map<String, Deque<String>> query = exchange.getQueryParameters();
    ProjectServices target;
    long from;
    boolean follow;
    try {
      Project project = services.project(parts[0]);
      target = services.of(project);
      if (target.declared(parts[1]).isEmpty()) {
        throw new RoundhouseException.NotFound("no service " + parts[1] + " in project " + project.name());
      }
      String lastEventId = exchange.getRequestHeaders().getFirst("Last-Event-ID");
      String after = lastEventId != null ? lastEventId : first(query, "after");
      from = after != null ? number("after", after) + 1 : -number("tail", first(query, "tail", "200"));
      follow = "1".equals(first(query, "follow")) || "true".equals(first(query, "follow"));
    } catch (RoundhouseException e) {
      send(exchange, e instanceof RoundhouseException.NotFound ? 404 : 400, e.code(), e.getMessage());
      return;
    }
    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/event-stream; charset=utf-8");
    exchange.getResponseHeaders().put(Headers.CACHE_CONTROL, "no-store");
    exchange.startBlocking();
    OutputStream out = exchange.getOutputStream();
    out.flush();
    stream(out, target, parts[1], from, follow);
    exchange.endExchange();
  }

  private void stream(OutputStream out, ProjectServices target, String service, long from, boolean follow) {
    SseLines events = target.events(service, services.settings().logLines());
    Batch batch = new Batch();
    long next = from;
    long quietSince = System.nanoTime();
    try {
      while (!closed.getAsBoolean()) {
        LogChunk chunk = follow ? target.supervisor().follow(service, next, BATCH, POLL)
            : target.supervisor().logs(service, next, BATCH);
        for (LogLine line : chunk.lines()) {
          batch.add(line.stream() == LogLine.Stream.MARKER ? skipped(line, chunk.missed()) : events.event(line));
        }
        next = chunk.nextOffset();
        if (!chunk.lines().isEmpty()) {
          batch.writeTo(out); // one write and one flush per chunk, not per line
          out.flush();
          quietSince = System.nanoTime();
        } else if (!follow) {
          return;
        } else if (System.nanoTime() - quietSince >= keepAlive.toNanos()) {
          out.write(": keep-alive\n\n".getBytes(StandardCharsets.UTF_8));
          out.flush();
          quietSince = System.nanoTime();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ServiceException e) {
      // The service was removed while followed: end the stream.
    } catch (IOException e) {
      // The viewer went away (a closed tab, a killed curl): nothing to answer.
    }
  }

  private static byte[] skipped(LogLine marker, long missed) {
    return ("event: skipped\ndata: " + Json.write(Map.of("missed", missed, "offset", marker.offset(), "text", marker.text()))
        + "\n\n").getBytes(StandardCharsets.UTF_8);
  }

  /** The events of one chunk, gathered for one write. Not thread-safe: one per stream. */
  private static final class Batch {
    private byte[] bytes = new byte[64 * 1024];
    private int size;

    void add(byte[] event) {
      if (size + event.length > bytes.length) {
        bytes = java.util.Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + event.length));
      }
      System.arraycopy(event, 0, bytes, size, event.length);
      size += event.length;
    }

    void writeTo(OutputStream out) throws IOException {
      out.write(bytes, 0, size);
      size = 0;
    }
  }

  private static String first(Map<String, Deque<String>> query, String name) {
    Deque<String> values = query.get(name);
    return values == null || values.isEmpty() ? null : values.getFirst();
  }

  private static String first(Map<String, Deque<String>> query, String name, String fallback) {
    String value = first(query, name);
    return value == null ? fallback : value;
  }

  private static long number(String name, String text) {
    try {
      long value = Long.parseLong(text.strip());
      if (value >= -1) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new RoundhouseException.InvalidInput(name + " must be a whole number, not '" + text + "'");
  }

  static void send(HttpServerExchange exchange, int status, String code, String message) {
    exchange.setStatusCode(status);
    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
    exchange.getResponseSender().send(Json.write(Map.of("error", Map.of("status", status, "code", code, "message", message))));
  }
}
