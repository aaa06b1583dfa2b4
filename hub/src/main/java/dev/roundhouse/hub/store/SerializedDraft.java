package dev.roundhouse.hub.store;

import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.events.EventDraft;

/**
 * An event draft with its columns already in text form. {@link SqliteStore#append} makes it on the caller's
 * thread, so the single writer thread (every event's critical path) only binds and inserts. Immutable.
 */
record SerializedDraft(EventDraft draft, String actor, String data) {
  static SerializedDraft of(EventDraft draft) {
    return new SerializedDraft(draft, draft.actor().toString(), Json.write(draft.data()));
  }
}
