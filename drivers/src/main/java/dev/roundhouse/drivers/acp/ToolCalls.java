package dev.roundhouse.drivers.acp;

import com.agentclientprotocol.sdk.spec.AcpSchema;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * How an ACP tool call reads in the turn contract. ACP names no tool, only a {@code kind} ({@code read},
 * {@code edit}, {@code execute}, ..., {@code other}) and a human {@code title}: the kind is the tool's name
 * (what the permission gate's remembered rules name), except for a call of kind {@code other} whose title
 * is a bare identifier (with an optional note in parentheses), such as an MCP tool's name (Gemini: {@code
 * suggest_task (roundhouse MCP Server)}), which is named by that identifier; the
 * input holds the title, the kind, the locations and the agent's raw input when it sends one. Stateless.
 */
final class ToolCalls {
  private ToolCalls() {}

  /** A bare identifier, optionally followed by a note in parentheses: Gemini titles MCP tools "suggest_task (roundhouse MCP Server)". */
  private static final java.util.regex.Pattern NAMED = java.util.regex.Pattern.compile("([A-Za-z][A-Za-z0-9_.-]{0,63})(?: \\([^()]*\\))?");

  static String toolName(AcpSchema.ToolKind kind, String title) {
    if ((kind == null || kind == AcpSchema.ToolKind.OTHER) && title != null) {
      java.util.regex.Matcher named = NAMED.matcher(title);
      if (named.matches()) {
        return named.group(1);
      }
    }
    return kindName(kind);
  }

  static String kindName(AcpSchema.ToolKind kind) {
    return kind == null ? "other" : AcpJson.MAPPER.convertValue(kind, String.class);
  }

  static JsonNode input(String title, AcpSchema.ToolKind kind, List<AcpSchema.ToolCallLocation> locations, Object rawInput) {
    return input(title, kind, locations, rawInput, null);
  }

  /**
   * The input of a call the agent asks about, with what its request shows of the call's arguments (Gemini
   * sends no raw input when it asks, only content): diffs as {@code changes} ({@code path}, {@code
   * old_text}, {@code new_text}: what will be written); text that is a JSON object (Gemini's rendering of an
   * MCP tool's arguments) as {@code arguments}; other text (such as Gemini's note on a shell command) as
   * {@code details}.
   */
  static JsonNode input(
      String title, AcpSchema.ToolKind kind, List<AcpSchema.ToolCallLocation> locations, Object rawInput, List<AcpSchema.ToolCallContent> content) {
    ObjectNode input = (ObjectNode) basicInput(title, kind, locations, rawInput);
    if (content == null) {
      return input;
    }
    List<String> texts = new ArrayList<>();
    for (AcpSchema.ToolCallContent item : content) {
      switch (item) {
        case AcpSchema.ToolCallDiff diff -> {
          ObjectNode change = (input.has("changes") ? (ArrayNode) input.get("changes") : input.putArray("changes")).addObject();
          change.put("path", diff.path());
          if (diff.oldText() != null) {
            change.put("old_text", diff.oldText());
          }
          change.put("new_text", diff.newText());
        }
        case AcpSchema.ToolCallContentBlock block when block.content() instanceof AcpSchema.TextContent text && text.text() != null
            && !text.text().isBlank() -> texts.add(text.text().strip());
        case null, default -> {}
      }
    }
    if (texts.size() == 1 && rawInput == null && jsonObject(texts.get(0)) instanceof ObjectNode arguments) {
      input.set("arguments", arguments);
    } else if (!texts.isEmpty()) {
      input.put("details", String.join("\n", texts));
    }
    return input;
  }

  /**
   * One line a person can judge a permission request by: the files and how much will be written for an
   * edit, the tool and its arguments for a call that has them (an MCP tool), the command for a shell call
   * (its title), else the title and the agent's note.
   */
  static String describe(String title, AcpSchema.ToolKind kind, JsonNode input) {
    String name = title != null && !title.isBlank() ? title : kindName(kind);
    if (input.path("changes").isArray() && !input.path("changes").isEmpty()) {
      List<String> changes = new ArrayList<>();
      for (JsonNode change : input.path("changes")) {
        String verb = !change.has("old_text") ? "Create " : change.path("new_text").asText().isEmpty() ? "Empty " : "Edit ";
        changes.add(verb + change.path("path").asText() + " (" + lines(change.path("new_text").asText()) + ")");
      }
      return String.join("; ", changes);
    }
    if (input.has("arguments")) {
      return "Call " + name + " with " + shortJson(input.get("arguments"));
    }
    if (kind == AcpSchema.ToolKind.EXECUTE) {
      return name;
    }
    JsonNode raw = input.path("raw_input");
    if (raw.isObject() && !raw.isEmpty()) {
      return name + " with " + shortJson(raw);
    }
    return input.has("details") ? name + ": " + shorten(input.get("details").asText()) : name;
  }

  private static final int MAX_SHOWN_CHARS = 200;

  private static String lines(String text) {
    long count = text.chars().filter(c -> c == '\n').count() + (text.isEmpty() || text.endsWith("\n") ? 0 : 1);
    return count == 1 ? "1 line" : count + " lines";
  }

  private static String shortJson(JsonNode value) {
    return shorten(value.toString());
  }

  private static String shorten(String text) {
    return text.length() <= MAX_SHOWN_CHARS ? text : text.substring(0, MAX_SHOWN_CHARS) + "…";
  }

  private static JsonNode jsonObject(String text) {
    if (!text.startsWith("{")) {
      return null;
    }
    try {
      return AcpJson.MAPPER.readTree(text);
    } catch (java.io.IOException e) {
      return null;
    }
  }

  private static JsonNode basicInput(String title, AcpSchema.ToolKind kind, List<AcpSchema.ToolCallLocation> locations, Object rawInput) {
    ObjectNode input = AcpJson.MAPPER.createObjectNode();
    if (title != null) {
      input.put("title", title);
    }
    input.put("kind", kindName(kind));
    if (locations != null && !locations.isEmpty()) {
      ArrayNode paths = input.putArray("locations");
      for (AcpSchema.ToolCallLocation location : locations) {
        if (location != null && location.path() != null) {
          paths.add(location.line() == null ? location.path() : location.path() + ":" + location.line());
        }
      }
    }
    if (rawInput != null) {
      input.set("raw_input", AcpJson.tree(rawInput));
    }
    return input;
  }

  /**
   * The command line of a shell tool (what remembered prefix rules match): the raw input's {@code command}
   * when the agent sends one, else the title (Gemini's title for a shell call is the command); null for
   * other kinds.
   */
  static String command(AcpSchema.ToolKind kind, String title, Object rawInput) {
    if (kind != AcpSchema.ToolKind.EXECUTE) {
      return null;
    }
    JsonNode command = AcpJson.tree(rawInput).path("command");
    if (command.isTextual()) {
      return command.asText();
    }
    if (command.isArray()) {
      List<String> words = new ArrayList<>();
      command.forEach(word -> words.add(word.asText()));
      return String.join(" ", words);
    }
    return title;
  }

  /** What a tool produced, as text: its content blocks, diffs as "edited PATH", else its raw output. */
  static String output(List<AcpSchema.ToolCallContent> content, Object rawOutput) {
    List<String> parts = new ArrayList<>();
    if (content != null) {
      for (AcpSchema.ToolCallContent item : content) {
        switch (item) {
          case AcpSchema.ToolCallContentBlock block when block.content() instanceof AcpSchema.TextContent text && text.text() != null ->
              parts.add(text.text());
          case AcpSchema.ToolCallDiff diff -> parts.add((diff.oldText() == null ? "created " : "edited ") + diff.path());
          case AcpSchema.ToolCallTerminal terminal -> parts.add("[terminal " + terminal.terminalId() + "]");
          case null, default -> {}
        }
      }
    }
    if (parts.isEmpty() && rawOutput != null) {
      JsonNode raw = AcpJson.tree(rawOutput);
      parts.add(raw.isTextual() ? raw.asText() : raw.toString());
    }
    return String.join("\n", parts);
  }
}
