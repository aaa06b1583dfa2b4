package dev.roundhouse.hub.turns;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.model.Generation;
import dev.roundhouse.hub.spi.ConversationEntry;
import dev.roundhouse.hub.store.StoreReader;
import java.util.ArrayList;
import java.util.List;

/**
 * A task's conversation in its current generation, built from the stored transcript for {@link
 * dev.roundhouse.hub.spi.TurnContext#history()}.
 *
 * <p>Stateless and thread-safe.
 */
final class ConversationHistory {
  private ConversationHistory() {}

  /** The conversation of {@code task}'s current generation, without the events of turn {@code excludedTurn}. */
  static List<ConversationEntry> read(StoreReader reader, long task, long excludedTurn) {
    List<Generation> ended = reader.runner().generations(task);
    long lower = ended.isEmpty() ? 0 : ended.getLast().lastSeq();
    return of(reader.runner().taskEvents(task, lower, Long.MAX_VALUE, Integer.MAX_VALUE, true), excludedTurn);
  }

  /** The conversation entries among {@code events}, in order, leaving out those of turn {@code excludedTurn}. */
  static List<ConversationEntry> of(List<Event> events, long excludedTurn) {
    List<ConversationEntry> entries = new ArrayList<>();
    for (Event event : events) {
      JsonNode data = event.data();
      if (data.path("turn").asLong(-1) == excludedTurn) {
        continue;
      }
      switch (event.type()) {
        case "turn.user_message" -> entries.add(new ConversationEntry.UserMessage(data.path("text").asText("")));
        case "turn.message" -> entries.add(new ConversationEntry.AssistantMessage(data.path("text").asText("")));
        case "turn.tool_call" -> {
          JsonNode input = data.get("input");
          entries.add(new ConversationEntry.ToolCall(
              data.path("call_id").asText(""), data.path("tool").asText(""), input == null ? NullNode.getInstance() : input));
        }
        case "turn.tool_result" -> entries.add(new ConversationEntry.ToolResult(
            data.path("call_id").asText(""), data.path("output").asText(""), data.path("is_error").asBoolean(false)));
        default -> { }
      }
    }
    return List.copyOf(entries);
  }
}
