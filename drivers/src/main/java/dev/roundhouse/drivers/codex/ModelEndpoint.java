package dev.roundhouse.drivers.codex;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import java.util.Optional;

/**
 * Names the model endpoint a Codex thread talks to, from the app-server's {@code config/read} answer, so an
 * error can say which endpoint failed; and digs the endpoint's own message out of Codex's errors. Stateless.
 */
final class ModelEndpoint {
  static final String OPENAI_BASE_URL = "https://api.openai.com/v1";

  private ModelEndpoint() {}

  /** Such as "the model endpoint http://127.0.0.1:4000/v1 (codex provider 'fake')". */
  static String describe(JsonNode configRead) {
    JsonNode config = configRead.path("config");
    String provider = config.path("model_provider").asText("openai");
    String baseUrl = config.path("model_providers").path(provider).path("base_url").asText(null);
    if (baseUrl == null && provider.equals("openai")) {
      baseUrl = config.path("openai_base_url").isTextual() ? config.path("openai_base_url").asText() : OPENAI_BASE_URL;
    }
    return "the model endpoint " + (baseUrl == null ? "" : baseUrl + " ") + "(codex provider '" + provider + "')";
  }

  /** How Codex passes on an HTTP error: "unexpected status 503 Service Unavailable: BODY, url: URL". */
  private static final java.util.regex.Pattern UNEXPECTED_STATUS =
      java.util.regex.Pattern.compile("unexpected status \\d{3}[^:]*: (.+?)(?:, url: \\S+)?", java.util.regex.Pattern.DOTALL);

  /**
   * The endpoint's own message in a Codex error: the {@code error.message} of a JSON error body Codex passed
   * on verbatim, or the body in its "unexpected status ..." sentence; null when it is neither.
   */
  static String innerMessage(String text) {
    if (text == null) {
      return null;
    }
    java.util.regex.Matcher unexpected = UNEXPECTED_STATUS.matcher(text.strip());
    if (unexpected.matches()) {
      String body = unexpected.group(1).strip();
      String json = innerMessage(body);
      return json != null ? json : body;
    }
    if (!text.strip().startsWith("{")) {
      return null;
    }
    try {
      JsonNode body = Json.mapper().readTree(text);
      JsonNode message = body.path("error").path("message");
      if (message.isTextual()) {
        return message.asText();
      }
      return body.path("message").isTextual() ? body.path("message").asText() : null;
    } catch (java.io.IOException e) {
      return null;
    }
  }

  /**
   * The HTTP status a {@code codexErrorInfo} kind stands for when it carries none: Codex 0.171.0 turns a 500
   * into {@code internalServerError} ("We're currently experiencing high demand ...") and drops the status
   * and the body.
   */
  static Optional<Integer> impliedStatus(JsonNode codexErrorInfo) {
    return codexErrorInfo.isTextual() && codexErrorInfo.asText().equals("internalServerError") ? Optional.of(500) : Optional.empty();
  }

  /** The HTTP status inside a {@code codexErrorInfo} such as {@code {"responseStreamConnectionFailed": {"httpStatusCode": 502}}}. */
  static Optional<Integer> httpStatus(JsonNode codexErrorInfo) {
    if (!codexErrorInfo.isObject()) {
      return Optional.empty();
    }
    for (JsonNode variant : codexErrorInfo) {
      JsonNode code = variant.path("httpStatusCode");
      if (code.isInt()) {
        return Optional.of(code.asInt());
      }
    }
    return Optional.empty();
  }
}
