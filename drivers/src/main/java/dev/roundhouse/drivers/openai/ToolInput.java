package dev.roundhouse.drivers.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;

/**
 * Reads a tool's arguments, forgiving what models commonly get almost right (a number or a boolean sent
 * as a string) and naming the argument when it is missing or of the wrong type.
 *
 * <p>Stateless and thread-safe.
 */
final class ToolInput {
  private ToolInput() {}

  /** An argument is missing or of the wrong type; the message names it. */
  static final class ArgumentException extends Exception {
    private static final long serialVersionUID = 1L;

    ArgumentException(String message) {
      super(message);
    }
  }

  static String requiredText(ObjectNode arguments, String name) throws ArgumentException {
    String value = requiredString(arguments, name);
    if (value.isBlank()) {
      throw new ArgumentException("'" + name + "' is empty");
    }
    return value;
  }

  static String requiredString(ObjectNode arguments, String name) throws ArgumentException {
    JsonNode value = arguments.get(name);
    if (value == null || value.isNull()) {
      throw new ArgumentException("the argument '" + name + "' is missing");
    }
    if (!value.isTextual()) {
      throw new ArgumentException("'" + name + "' must be a string, not " + value.getNodeType().toString().toLowerCase(Locale.ROOT));
    }
    return value.asText();
  }

  static String optionalText(ObjectNode arguments, String name, String fallback) throws ArgumentException {
    JsonNode value = arguments.get(name);
    if (value == null || value.isNull() || value.isTextual() && value.asText().isBlank()) {
      return fallback;
    }
    if (!value.isTextual()) {
      throw new ArgumentException("'" + name + "' must be a string");
    }
    return value.asText();
  }

  static int optionalInt(ObjectNode arguments, String name, int fallback, int min, int max) throws ArgumentException {
    JsonNode value = arguments.get(name);
    if (value == null || value.isNull()) {
      return fallback;
    }
    long number;
    if (value.isIntegralNumber() || value.isNumber() && value.asDouble() == Math.rint(value.asDouble())) {
      number = value.asLong();
    } else if (value.isTextual() && value.asText().strip().matches("-?\\d{1,18}")) {
      number = Long.parseLong(value.asText().strip());
    } else {
      throw new ArgumentException("'" + name + "' must be a whole number, not " + value);
    }
    if (number < min || number > max) {
      throw new ArgumentException("'" + name + "' must be at least " + min + (max == Integer.MAX_VALUE ? "" : " and at most " + max) + ", not " + number);
    }
    return (int) number;
  }

  static boolean optionalBoolean(ObjectNode arguments, String name, boolean fallback) throws ArgumentException {
    JsonNode value = arguments.get(name);
    if (value == null || value.isNull()) {
      return fallback;
    }
    if (value.isBoolean()) {
      return value.asBoolean();
    }
    if (value.isTextual() && (value.asText().equalsIgnoreCase("true") || value.asText().equalsIgnoreCase("false"))) {
      return Boolean.parseBoolean(value.asText());
    }
    throw new ArgumentException("'" + name + "' must be true or false, not " + value);
  }
}
