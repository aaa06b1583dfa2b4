package dev.roundhouse.hub.spi;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * An agent wants to use a tool. Immutable.
 *
 * @param callId the tool call this is about (as in {@link TurnEvent.ToolCall})
 * @param tool the tool's name as the agent knows it
 * @param input the tool's arguments
 * @param description one line for the human, such as "Run: npm test"
 * @param command for a shell tool, the command line (remembered rules for shell tools are command
 *     prefixes); null for other tools
 */
public record PermissionRequest(String callId, String tool, JsonNode input, String description, String command) {
  public PermissionRequest {
    Objects.requireNonNull(tool, "tool");
  }
}
