package dev.roundhouse.hub.ext;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The resources extensions offer ({@link ExtensionContext#offerResource}), for the faces that serve
 * resources: the MCP endpoint lists them beside the hub's own and reads them through {@link #find}.
 *
 * <p>Thread-safe.
 */
public interface ExtensionResources {

  /** Adds {@code resource}; its URI (or template) must be new. */
  void add(ExtensionResource resource);

  /** Every resource, in the order they were offered. */
  List<ExtensionResource> list();

  /**
   * The resource {@code uri} names: the fixed resource with exactly that URI, else the first template it
   * matches, with the template's values.
   */
  Optional<Found> find(String uri);

  /** A resource found for a URI, with its template's values (empty for a fixed URI). */
  record Found(ExtensionResource resource, String uri, Map<String, String> variables) {}

  static ExtensionResources create() {
    return new RealExtensionResources();
  }
}
