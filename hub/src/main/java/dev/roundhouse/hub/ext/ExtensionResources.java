package dev.roundhouse.hub.ext;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Locks;
import dev.roundhouse.hub.events.EventBus;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import dev.roundhouse.hub.spi.ExtensionResource;

/**
 * The resources extensions offer ({@link ExtensionContext#offerResource}), for the faces that serve
 * resources: the MCP endpoint lists them beside the hub's own and reads them through {@link #find}. When the
 * state behind one changes, the extension says so ({@link ExtensionContext#resourcesChanged}) and
 * {@link #changed} puts a {@value #UPDATED} event on the hub's one event stream, where the MCP endpoint hears
 * it as it hears the hub's own events.
 *
 * <p>Thread-safe.
 */
public interface ExtensionResources {

  /**
   * The type of the event that names resources an extension changed: {@code data} is {@code {"uris": [...]}},
   * each a concrete URI. Transient: published live with {@code seq} 0, never stored or replayed (the state
   * behind an extension's resource lives outside the database, so there is nothing to commit with it).
   */
  String UPDATED = "resource.updated";

  /** Adds {@code resource}; its URI (or template) must be new. */
  void add(ExtensionResource resource);

  /** Every resource, in the order they were offered. */
  List<ExtensionResource> list();

  /**
   * The resource {@code uri} names: the fixed resource with exactly that URI, else the first template it
   * matches, with the template's values.
   */
  Optional<Found> find(String uri);

  /**
   * Publishes one {@value #UPDATED} event by {@code actor} naming {@code uris}; nothing when {@code uris} is
   * empty. Never blocks.
   *
   * @throws IllegalArgumentException naming a URI that no offered resource serves, or that is a template
   *     itself ({@code roundhouse://calendars/{calendar}}) rather than the URI that changed
   *     ({@code roundhouse://calendars/work})
   */
  void changed(Actor actor, List<String> uris);

  /** A resource found for a URI, with its template's values (empty for a fixed URI). */
  record Found(ExtensionResource resource, String uri, Map<String, String> variables) {
    /**
     * Reads the resource for {@code actor} with its extension's {@linkplain ExtensionResource.Reader reader}.
     * A call-out: the caller must hold no lock ({@link Locks#assertNoneHeld}).
     *
     * @throws IllegalStateException when the calling thread holds a {@linkplain Locks#tracked tracked} lock
     */
    public ExtensionResource.Contents read(Actor actor) {
      Locks.assertNoneHeld("the reader of resource " + resource.uri());
      return resource.reader().read(actor, uri, variables);
    }
  }

  /** An empty registry whose {@link #changed} publishes on {@code events}, stamped by {@code clock}. */
  static ExtensionResources create(EventBus events, Clock clock) {
    return new RealExtensionResources(events, clock);
  }
}
