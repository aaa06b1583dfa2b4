package dev.roundhouse.drivers.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a provider said when it refused a request, in a few words for a human: the message of {@code
 * {"error":{"message":..}}} (OpenAI, OpenRouter, with OpenRouter's upstream detail), {@code {"error":".."}},
 * {@code {"message":..}} or {@code {"detail":..}} (vLLM, FastAPI), the title of an HTML error page, or the
 * first line of plain text. Callers scrub the key out of the result.
 *
 * <p>Stateless and thread-safe.
 */
final class ProviderMessages {
  private static final Pattern HTML_TITLE = Pattern.compile("<title>(.*?)</title>", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
  private static final int MAX_CHARS = 300;

  private ProviderMessages() {}

  /** The message in an error response's body; the status's reason phrase when the body is empty. */
  static String fromBody(String body, int status) {
    String text = body.strip();
    if (text.isEmpty()) {
      return reasonPhrase(status);
    }
    if (text.startsWith("{")) {
      try {
        Optional<String> message = fromJson(Json.mapper().readTree(text));
        if (message.isPresent()) {
          return message.get();
        }
      } catch (JsonProcessingException e) {
        // Not JSON after all: quote it as text.
      }
    }
    if (text.startsWith("<")) {
      Matcher title = HTML_TITLE.matcher(text);
      return "an HTML page" + (title.find() ? " ('" + SseLines.shorten(title.group(1)) + "')" : "");
    }
    String firstLine = text.lines().findFirst().orElse(text);
    return firstLine.length() <= MAX_CHARS ? firstLine : firstLine.substring(0, MAX_CHARS - 3) + "...";
  }

  /** The message in a JSON error object, when it has one. */
  static Optional<String> fromJson(JsonNode node) {
    JsonNode error = node.get("error");
    if (error != null && error.isObject()) {
      String message = error.path("message").asText("");
      String raw = error.path("metadata").path("raw").asText("");
      if (!message.isBlank()) {
        return Optional.of(raw.isBlank() || message.contains(raw) ? message : message + ": " + SseLines.shorten(raw));
      }
    }
    if (error != null && error.isTextual() && !error.asText().isBlank()) {
      return Optional.of(error.asText());
    }
    for (String field : new String[] {"message", "detail"}) {
      JsonNode value = node.get(field);
      if (value != null && value.isTextual() && !value.asText().isBlank()) {
        return Optional.of(value.asText());
      }
      if (value != null && (value.isArray() || value.isObject())) {
        return Optional.of(SseLines.shorten(value.toString()));
      }
    }
    return Optional.empty();
  }

  private static String reasonPhrase(int status) {
    return switch (status) {
      case 400 -> "Bad Request";
      case 401 -> "Unauthorized";
      case 403 -> "Forbidden";
      case 404 -> "Not Found";
      case 429 -> "Too Many Requests";
      case 500 -> "Internal Server Error";
      case 502 -> "Bad Gateway";
      case 503 -> "Service Unavailable";
      case 504 -> "Gateway Timeout";
      default -> "no message";
    };
  }
}
