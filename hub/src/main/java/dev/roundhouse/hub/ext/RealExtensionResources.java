package dev.roundhouse.hub.ext;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The list behind {@link ExtensionResources}. Thread-safe: a copy-on-write list (resources are added while
 * extensions start and read on every request); {@link #add} checks and appends under one lock, calling
 * nothing else while it holds it; reads take no lock.
 */
final class RealExtensionResources implements ExtensionResources {
  private final CopyOnWriteArrayList<ExtensionResource> resources = new CopyOnWriteArrayList<>();
  private final ReentrantLock adding = new ReentrantLock();

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
}
