package dev.roundhouse.hub.ext;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.Locks;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventBus;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Pattern;
import dev.roundhouse.hub.spi.ExtensionResource;

/**
 * The list behind {@link ExtensionResources}. Thread-safe: a copy-on-write list (resources are added while
 * extensions start and read on every request); {@link #add} checks and appends under one lock, calling
 * nothing else while it holds it; reads and {@link #changed} take no lock ({@link EventBus#publishTransient}
 * never blocks).
 */
final class RealExtensionResources implements ExtensionResources {
  private static final Pattern VARIABLE = Pattern.compile("\\{[a-z][a-z0-9_]*}");

  /**
   * Not {@code @GuardedBy}: read without a lock (a copy-on-write list); {@link #adding} only makes the duplicate
   * check and the append one step.
   */
  private final CopyOnWriteArrayList<ExtensionResource> resources = new CopyOnWriteArrayList<>();
  private final ReentrantLock adding = Locks.tracked("extension resources");
  private final EventBus events;
  private final Clock clock;

  RealExtensionResources(EventBus events, Clock clock) {
    this.events = events;
    this.clock = clock;
  }

  @Override
  public void add(ExtensionResource resource) {
    adding.lock();
    try {
      for (ExtensionResource existing : resources) {
        if (existing.uri().equals(resource.uri())) {
          throw new IllegalArgumentException("resource " + resource.uri() + " is offered twice");
        }
      }
      resources.add(resource);
    } finally {
      adding.unlock();
    }
  }

  @Override
  public List<ExtensionResource> list() {
    return List.copyOf(resources);
  }

  @Override
  public Optional<Found> find(String uri) {
    if (uri == null) {
      return Optional.empty();
    }
    for (ExtensionResource resource : resources) {
      if (!resource.isTemplate() && resource.uri().equals(uri)) {
        return Optional.of(new Found(resource, uri, Map.of()));
      }
    }
    for (ExtensionResource resource : resources) {
      if (resource.isTemplate()) {
        Optional<Map<String, String>> values = resource.match(uri);
        if (values.isPresent()) {
          return Optional.of(new Found(resource, uri, values.get()));
        }
      }
    }
    return Optional.empty();
  }

  @Override
  public void changed(Actor actor, List<String> uris) {
    if (uris.isEmpty()) {
      return;
    }
    ObjectNode data = Json.mapper().createObjectNode();
    ArrayNode named = data.putArray("uris");
    for (String uri : uris) {
      if (VARIABLE.matcher(uri).find()) {
        throw new IllegalArgumentException(uri + " is a template; report the URI that changed, with a value for each variable");
      }
      if (find(uri).isEmpty()) {
        throw new IllegalArgumentException("no offered resource is " + uri + "; an extension reports changes to the resources it offers");
      }
      named.add(uri);
    }
    events.publishTransient(new Event(0, UPDATED, clock.instant(), actor, null, null, data));
  }
}
