package dev.roundhouse.drivers.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Json;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses a tool call's arguments, repairing what small models commonly break: markdown code fences around
 * the JSON, text before or after the object, trailing commas, single quotes, unquoted keys, comments, raw
 * newlines inside strings, and an object sent as a JSON string. What cannot be repaired is an {@link
 * Outcome} with a message for the model, never an exception.
 *
 * <p>Stateless and thread-safe.
 */
final class ToolArguments {
  private static final Pattern FENCE = Pattern.compile("```[a-zA-Z0-9_-]*\\s*\\n?(.*?)```", Pattern.DOTALL);

  private static final ObjectReader STRICT = Json.mapper().reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private static final ObjectMapper LENIENT =
      JsonMapper.builder()
          .enable(
              JsonReadFeature.ALLOW_TRAILING_COMMA,
              JsonReadFeature.ALLOW_SINGLE_QUOTES,
              JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES,
              JsonReadFeature.ALLOW_JAVA_COMMENTS,
              JsonReadFeature.ALLOW_YAML_COMMENTS,
              JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS,
              JsonReadFeature.ALLOW_BACKSLASH_ESCAPING_ANY_CHARACTER,
              JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS,
              JsonReadFeature.ALLOW_LEADING_PLUS_SIGN_FOR_NUMBERS,
              JsonReadFeature.ALLOW_LEADING_DECIMAL_POINT_FOR_NUMBERS)
          .build();

  private ToolArguments() {}

  /**
   * The parsed arguments, or why they could not be had.
   *
   * @param arguments the arguments as an object (empty when the model sent nothing), or null on failure
   * @param repaired true when the text was not valid JSON as sent
   * @param error for the model: "could not parse the arguments of read_file: ...", or null
   */
  record Outcome(ObjectNode arguments, boolean repaired, String error) {
    Optional<ObjectNode> parsed() {
      return Optional.ofNullable(arguments);
    }
  }

  /** Parses {@code raw}, the arguments of a call to {@code tool}. */
  static Outcome parse(String tool, String raw) {
    String text = raw == null ? "" : raw.strip();
    if (text.isEmpty()) {
      return new Outcome(Json.mapper().createObjectNode(), false, null);
    }
    Optional<JsonNode> strict = strict(text);
    if (strict.isPresent() && strict.get().isObject()) {
      return new Outcome((ObjectNode) strict.get(), false, null);
    }
    if (strict.isPresent() && strict.get().isTextual()) {
      // An object sent as a JSON string: "{\"path\": \"a\"}".
      Outcome inner = parse(tool, strict.get().asText());
      return inner.arguments() == null ? failed(tool, "the arguments are a string, not an object") : new Outcome(inner.arguments(), true, null);
    }
    String candidate = unfence(text);
    int start = candidate.indexOf('{');
    if (start < 0) {
      return failed(tool, "there is no JSON object in '" + SseLines.shorten(text) + "'");
    }
    int end = matchingBrace(candidate, start);
    String object = end < 0 ? candidate.substring(start) : candidate.substring(start, end + 1);
    try {
      JsonNode node = LENIENT.readTree(object);
      if (node != null && node.isObject()) {
        return new Outcome((ObjectNode) node, true, null);
      }
      return failed(tool, "expected a JSON object, got '" + SseLines.shorten(object) + "'");
    } catch (JsonProcessingException e) {
      String reason = e.getOriginalMessage().split("\n", 2)[0];
      return failed(tool, reason + " in '" + SseLines.shorten(object) + "'");
    }
  }

  private static Outcome failed(String tool, String why) {
    return new Outcome(null, false, "could not parse the arguments of " + tool + ": " + why + "; send one JSON object that matches the tool's schema");
  }

  private static Optional<JsonNode> strict(String text) {
    try {
      return Optional.ofNullable(STRICT.readTree(text));
    } catch (JsonProcessingException e) {
      return Optional.empty();
    }
  }

  /** The inside of the first fenced block that holds a brace, or the text itself. */
  private static String unfence(String text) {
    Matcher fence = FENCE.matcher(text);
    while (fence.find()) {
      if (fence.group(1).contains("{")) {
        return fence.group(1);
      }
    }
    return text.replace("```", "");
  }

  /**
   * The index of the brace that closes the one at {@code start}, skipping braces inside single- or
   * double-quoted strings; -1 when the object is not closed.
   */
  static int matchingBrace(String text, int start) {
    int depth = 0;
    char quote = 0;
    for (int i = start; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quote != 0) {
        if (c == '\\') {
          i++;
        } else if (c == quote) {
          quote = 0;
        }
        continue;
      }
      switch (c) {
        case '"', '\'' -> quote = c;
        case '{' -> depth++;
        case '}' -> {
          depth--;
          if (depth == 0) {
            return i;
          }
        }
        default -> {}
      }
    }
    return -1;
  }
}
