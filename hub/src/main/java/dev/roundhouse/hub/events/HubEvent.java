package dev.roundhouse.hub.events;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;

/**
 * An event the hub itself records, as a record: its type on the stream and its payload, serialised one way
 * (the record's components by their snake_case names, nulls left out) wherever it is recorded. Each
 * engine keeps its events in a sealed interface of its own (the runner's {@code RunnerEvent}), so a payload
 * is built in exactly one place and read back by type.
 */
public interface HubEvent {

  /** The event's type on the stream, such as {@code turn.ended}. */
  String type();

  /** The payload, as stored and sent. */
  default JsonNode data() {
    return Json.tree(this);
  }

  /** This event, ready to append: by {@code actor}, about {@code project} and {@code task} (either may be null). */
  default EventDraft draft(Actor actor, Long project, Long task) {
    return new EventDraft(type(), actor, project, task, data());
  }
}
