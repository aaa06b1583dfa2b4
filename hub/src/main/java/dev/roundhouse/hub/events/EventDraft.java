package dev.roundhouse.hub.events;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import java.util.Objects;

/** An event not yet written: the store gives it a sequence number and a time when it commits. */
public record EventDraft(String type, Actor actor, Long projectId, Long taskId, JsonNode data) {
  public EventDraft {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(actor, "actor");
    Objects.requireNonNull(data, "data");
  }
}
