package dev.roundhouse.mcpserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a stdio client told its MCP session that a new session must be told again to stand in for it: its
 * {@code initialize} request, {@code notifications/initialized}, its last {@code logging/setLevel} and the
 * URIs it subscribed to (less those it unsubscribed from). Replayed messages get ids of the relay's own
 * ({@code roundhouse-relay-N}), so their answers can never be mistaken for the client's.
 *
 * <p>Thread-safe: the relay's request threads record into it while a renewal reads it.
 */
final class ClientReplay {
  private final AtomicLong ids = new AtomicLong();
  private volatile ObjectNode initialize;
  private volatile String initialized;
  private volatile ObjectNode logLevel;
  private final Set<String> subscriptions = ConcurrentHashMap.newKeySet();

  /** Records {@code message} (its text is {@code line}) if a new session would need it. */
  void record(String method, JsonNode message, String line) {
    switch (method) {
      case "initialize" -> initialize = (ObjectNode) message.deepCopy();
      case "notifications/initialized" -> initialized = line;
      case "logging/setLevel" -> logLevel = (ObjectNode) message.deepCopy();
      case "resources/subscribe" -> subscriptions.add(message.path("params").path("uri").asText());
      case "resources/unsubscribe" -> subscriptions.remove(message.path("params").path("uri").asText());
      default -> {
        // nothing to replay
      }
    }
  }

  /** The client's {@code initialize} with an id of the relay's, or empty when the client never sent one. */
  Optional<String> initialize() {
    ObjectNode hello = initialize;
    return hello == null ? Optional.empty() : Optional.of(Json.write(hello.deepCopy().put("id", nextId())));
  }

  /** What follows {@code initialize} in a new session, in order. */
  List<String> afterInitialize() {
    List<String> lines = new ArrayList<>();
    if (initialized != null) {
      lines.add(initialized);
    }
    ObjectNode level = logLevel;
    if (level != null) {
      lines.add(Json.write(level.deepCopy().put("id", nextId())));
    }
    for (String uri : subscriptions) {
      ObjectNode subscribe = Json.mapper().createObjectNode().put("jsonrpc", "2.0").put("id", nextId())
          .put("method", "resources/subscribe");
      subscribe.putObject("params").put("uri", uri);
      lines.add(Json.write(subscribe));
    }
    return lines;
  }

  private String nextId() {
    return "roundhouse-relay-" + ids.incrementAndGet();
  }
}
