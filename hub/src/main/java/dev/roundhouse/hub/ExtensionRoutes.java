package dev.roundhouse.hub;

import io.undertow.server.HttpHandler;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/** The HTTP handlers extensions serve at {@code /api/x/{name}}. Thread-safe: a concurrent map, no lock. */
final class ExtensionRoutes {
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,31}");
  private final ConcurrentHashMap<String, HttpHandler> handlers = new ConcurrentHashMap<>();

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
