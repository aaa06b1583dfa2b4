package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/** Small renderings of values (the hub's records and JSON) for human output. Stateless; thread-safe. */
final class Texts {
  private Texts() {}

  /** A text field, or {@code fallback} when absent or null. */
  static String text(JsonNode node, String field, String fallback) {
    JsonNode value = node.path(field);
    return value.isMissingNode() || value.isNull() ? fallback : value.asText();
  }

  /** {@code value}'s text, or {@code fallback} when it is null. */
  static String or(Object value, String fallback) {
    return value == null ? fallback : value.toString();
  }

  /** An instant shortened to whole seconds ({@code 2026-11-30T12:05:42Z}); empty when null. */
  static String time(Instant value) {
    return value == null ? "" : value.truncatedTo(ChronoUnit.SECONDS).toString();
  }

  /** An ISO instant shortened to whole seconds ({@code 2026-11-30T12:05:42Z}); empty when absent. */
  static String time(JsonNode value) {
    if (value == null || !value.isTextual()) {
      return "";
    }
    try {
      return Instant.parse(value.asText()).truncatedTo(ChronoUnit.SECONDS).toString();
    } catch (DateTimeParseException e) {
      return value.asText();
    }
  }

  /** The elements of an array joined by {@code separator}; empty when absent. */
  static String join(JsonNode array, String separator) {
    List<String> parts = new ArrayList<>();
    array.forEach(element -> parts.add(element.isValueNode() ? element.asText() : Json.write(element)));
    return String.join(separator, parts);
  }

  /** The values joined by {@code separator}. */
  static String join(List<?> values, String separator) {
    List<String> parts = new ArrayList<>();
    values.forEach(value -> parts.add(String.valueOf(value)));
    return String.join(separator, parts);
  }

  /** A JSON value for a one-line display: text unquoted, arrays joined, {@code -} for null or absent. */
  static String value(JsonNode value) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      return "-";
    }
    if (value.isArray()) {
      return value.isEmpty() ? "[]" : join(value, ", ");
    }
    return value.isValueNode() ? value.asText() : Json.write(value);
  }

  /** {@code text} cut to {@code max} characters, with an ellipsis when cut; newlines become spaces. */
  static String abbreviate(String text, int max) {
    String flat = text.replaceAll("\\s+", " ").strip();
    return flat.length() <= max ? flat : flat.substring(0, max - 1) + "…";
  }

  /** {@code "1 task"} or {@code "3 tasks"}. */
  static String count(int n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }
}
