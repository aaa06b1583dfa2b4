package dev.roundhouse.hub.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.Methods;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Deque;
import java.util.Map;

/**
 * The JSON routes. Each route is a thin codec over an operation of the registry: no business rules here.
 * Runs on a virtual thread per request (blocking I/O is fine). Thread-safe: no state beyond the hub.
 */
final class ApiRoutes {
  private final Hub hub;
  private final int maxBodyBytes;
  private final EventStreamHandler events;

  ApiRoutes(Hub hub, EventStreamHandler events) {
    this.hub = hub;
    this.events = events;
    this.maxBodyBytes = hub.config().maxBodyBytes();
  }

  /** Set on a health check that presents the hub's token: it then also answers the scheduler's status. */
  static final io.undertow.util.AttachmentKey<Boolean> TOKEN_PRESENTED = io.undertow.util.AttachmentKey.create(Boolean.class);

  /** Handles the request; returns false when no route matches the path. */
  boolean handle(HttpServerExchange exchange) throws IOException {
    String path = exchange.getRequestPath();
    String[] parts = path.replaceAll("/+$", "").split("/");
    // parts[0] is "", parts[1] is "api"
    if (parts.length < 3 || !parts[1].equals("api")) {
      return false;
    }
    Actor actor = Actor.USER;
    switch (parts[2]) {
      case "health" -> {
        requireMethod(exchange, "GET");
        ObjectNode health = Json.mapper().createObjectNode();
        JsonNode scheduler = hub.operations().invoke("scheduler_status", Actor.USER, Json.mapper().createObjectNode());
        health.put("status", scheduler.path("stuck").asBoolean() ? "degraded" : "ok");
        health.put("version", Hub.version());
        if (Boolean.TRUE.equals(exchange.getAttachment(TOKEN_PRESENTED))) {
          health.set("scheduler", scheduler); // its schedules and times are the token holder's business only
          var containment = hub.processContainment();
          ObjectNode processes = health.putObject("processes"); // how turns' processes are contained here
          processes.put("active", containment.summary());
          processes.put("cgroup", containment.cgroupNote());
          processes.put("parent_death", containment.parentDeathNote());
        }
        send(exchange, health);
      }
      case "ops" -> {
        if (parts.length == 3) {
          requireMethod(exchange, "GET");
          ObjectNode body = Json.mapper().createObjectNode();
          ArrayNode ops = body.putArray("operations");
          hub.operations().list().forEach(op -> ops.add(Json.tree(op)));
          send(exchange, body);
        } else if (parts.length == 4) {
          String name = parts[3];
          if (exchange.getRequestMethod().equals(Methods.GET)) {
            send(exchange, Json.tree(hub.operations().describe(name).orElseThrow(() ->
                new RoundhouseException.NotFound("unknown_operation", "no operation named '" + name + "'; list them with GET /api/ops"))));
          } else {
            requireMethod(exchange, "POST");
            hub.operations().describe(name).orElseThrow(() ->
                new RoundhouseException.NotFound("unknown_operation", "no operation named '" + name + "'; list them with GET /api/ops"));
            send(exchange, hub.operations().invoke(name, actor, readBody(exchange)));
          }
        } else {
          return false;
        }
      }
      case "decisions" -> {
        requireMethod(exchange, "GET");
        send(exchange, hub.operations().invoke("decision_list", actor, null));
      }
      case "drivers" -> {
        requireMethod(exchange, "GET");
        send(exchange, hub.operations().invoke("driver_list", actor, null));
      }
      case "projects" -> {
        requireMethod(exchange, "GET");
        if (parts.length == 3) {
          send(exchange, hub.operations().invoke("project_list", actor, null));
        } else if (parts.length == 4) {
          send(exchange, invoke("project_get", actor, Map.of("project", parts[3])));
        } else if (parts.length == 5 && parts[4].equals("board")) {
          send(exchange, invoke("project_board", actor, Map.of("project", parts[3])));
        } else {
          return false;
        }
      }
      case "tasks" -> {
        requireMethod(exchange, "GET");
        if (parts.length == 3) {
          send(exchange, hub.operations().invoke("task_list", actor, taskQuery(exchange)));
        } else if (parts.length == 4) {
          send(exchange, invoke("task_get", actor, Map.of("task", id(parts[3], "task"))));
        } else if (parts.length == 5 && parts[4].equals("stream")) {
          long task = id(parts[3], "task");
          invoke("task_get", actor, Map.of("task", task)); // 404 for an unknown task, before streaming
          events.handle(exchange, task, hub.transcriptStart(task));
        } else if (parts.length == 5 && parts[4].equals("transcript")) {
          ObjectNode query = Json.mapper().createObjectNode();
          query.put("task", id(parts[3], "task"));
          Map<String, Deque<String>> params = exchange.getQueryParameters();
          for (String key : new String[] {"generation", "limit"}) {
            if (params.containsKey(key)) {
              query.put(key, (int) id(params.get(key).getFirst(), key));
            }
          }
          if (params.containsKey("after")) {
            query.put("after", id(params.get("after").getFirst(), "after"));
          }
          send(exchange, hub.operations().invoke("task_transcript", actor, query));
        } else {
          return false;
        }
      }
      default -> {
        return false;
      }
    }
    return true;
  }

  private JsonNode invoke(String op, Actor actor, Map<String, Object> input) {
    return hub.operations().invoke(op, actor, Json.tree(input));
  }

  private static JsonNode taskQuery(HttpServerExchange exchange) {
    ObjectNode query = Json.mapper().createObjectNode();
    Map<String, Deque<String>> params = exchange.getQueryParameters();
    for (String key : new String[] {"project", "tag", "text"}) {
      if (params.containsKey(key)) {
        query.put(key, params.get(key).getFirst());
      }
    }
    if (params.containsKey("status")) {
      ArrayNode statuses = query.putArray("status");
      params.get("status").forEach(v -> java.util.Arrays.stream(v.split(",")).forEach(statuses::add));
    }
    for (String key : new String[] {"limit", "offset"}) {
      if (params.containsKey(key)) {
        query.put(key, (int) id(params.get(key).getFirst(), key));
      }
    }
    return query;
  }

  private static long id(String text, String what) {
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new RoundhouseException.InvalidInput("'" + text + "' is not a valid " + what + " (a whole number)");
    }
  }

  private static void requireMethod(HttpServerExchange exchange, String method) {
    if (!exchange.getRequestMethod().toString().equals(method)) {
      exchange.getResponseHeaders().put(Headers.ALLOW, method);
      throw new RoundhouseException(
          "method_not_allowed",
          exchange.getRequestMethod() + " is not allowed on " + exchange.getRequestPath() + "; use " + method);
    }
  }

  private JsonNode readBody(HttpServerExchange exchange) throws IOException {
    String type = exchange.getRequestHeaders().getFirst(Headers.CONTENT_TYPE);
    if (type != null && !type.strip().toLowerCase(java.util.Locale.ROOT).startsWith("application/json")) {
      throw new RoundhouseException.InvalidInput(
          "unsupported_media_type", "the body must be application/json, not " + type);
    }
    long declared = exchange.getRequestContentLength();
    if (declared > maxBodyBytes) {
      throw tooLarge(declared);
    }
    // Our limit decides. Undertow's own (2 MiB) would cut the connection while it discards the rest of a larger
    // chunked body after our 413, and the client would never read the answer.
    exchange.setMaxEntitySize(0);
    exchange.startBlocking();
    byte[] body;
    try (InputStream in = exchange.getInputStream()) {
      body = in.readNBytes(maxBodyBytes + 1);
    }
    if (body.length > maxBodyBytes) {
      throw tooLarge(-1);
    }
    if (body.length == 0) {
      return null;
    }
    if (type == null) {
      // Refused as text/plain is: a browser's form or fetch without a type must not post to the hub.
      throw new RoundhouseException.InvalidInput(
          "unsupported_media_type", "a body needs 'Content-Type: application/json'; this request has no Content-Type");
    }
    try {
      return Json.readStrict(body);
    } catch (JsonProcessingException e) {
      var location = e.getLocation();
      throw new RoundhouseException.InvalidInput(
          "malformed_json",
          "the body is not valid JSON"
              + (location == null ? "" : " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")")
              + ": " + e.getOriginalMessage());
    }
  }

  private RoundhouseException tooLarge(long declared) {
    return new RoundhouseException.InvalidInput(
        "body_too_large",
        "the body is " + (declared > 0 ? declared + " bytes" : "larger than the limit")
            + "; at most " + maxBodyBytes + " bytes are accepted (ROUNDHOUSE_MAX_BODY_BYTES)");
  }

  private static void send(HttpServerExchange exchange, JsonNode body) {
    exchange.setStatusCode(200);
    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json; charset=utf-8");
    exchange.getResponseHeaders().put(Headers.CACHE_CONTROL, "no-store");
    exchange.getResponseSender().send(Json.write(body) + "\n", StandardCharsets.UTF_8);
  }
}
