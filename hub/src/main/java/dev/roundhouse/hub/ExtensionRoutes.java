package dev.roundhouse.hub;

import io.undertow.server.HttpHandler;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The HTTP handlers extensions serve at {@code /api/x/{name}}, and which of them check a credential of their own
 * (capability links) instead of the hub's token. Thread-safe: concurrent collections, no lock.
 */
final class ExtensionRoutes {
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,31}");
  private final ConcurrentHashMap<String, HttpHandler> handlers = new ConcurrentHashMap<>();
  private final Set<String> links = ConcurrentHashMap.newKeySet();

  /** As {@link #add}, for a route that checks its own credential (the hub checks only origin and host). */
  void addLinks(String name, HttpHandler handler) {
    add(name, handler);
    links.add(name);
  }

  /** True unless {@code name} is a route added with {@link #addLinks}. */
  boolean needsToken(String name) {
    return !links.contains(name);
  }

  /** @throws IllegalArgumentException when {@code name} is not 1-32 of a-z, 0-9, '-' or is served already */
  void add(String name, HttpHandler handler) {
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("a route name is 1-32 of a-z, 0-9, '-' starting with a letter, not '" + name + "'");
    }
    if (handlers.putIfAbsent(name, Objects.requireNonNull(handler, "handler")) != null) {
      throw new IllegalArgumentException("/api/x/" + name + " is served already");
    }
  }

  Optional<HttpHandler> get(String name) {
    return Optional.ofNullable(handlers.get(name));
  }
}
