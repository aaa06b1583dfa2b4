package dev.roundhouse.drivers.claude;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Json;

/**
 * The lines the driver writes on the CLI's stdin in its {@code stream-json} input mode: user messages,
 * answers to its control requests, and interrupts. Stateless; thread-safe.
 */
final class ControlMessages {
  private ControlMessages() {}

  /** {@code {"type":"user","message":{"role":"user","content":TEXT}}} */
  static String userMessage(String text) {
    ObjectNode line = Json.mapper().createObjectNode();
    line.put("type", "user");
    line.putObject("message").put("role", "user").put("content", text);
    return Json.write(line);
  }

  /** Lets a tool run, with its input as the CLI asked (the CLI requires {@code updatedInput}). */
  static String allow(String requestId, JsonNode input) {
    ObjectNode answer = Json.mapper().createObjectNode();
    answer.put("behavior", "allow");
    answer.set("updatedInput", input == null || input.isNull() ? Json.mapper().createObjectNode() : input);
    return success(requestId, answer);
  }

  /** Refuses a tool; {@code message} is what the model is told. */
  static String deny(String requestId, String message) {
    ObjectNode answer = Json.mapper().createObjectNode();
    answer.put("behavior", "deny");
    answer.put("message", message);
    return success(requestId, answer);
  }

  /** Asks the CLI to abandon the turn in progress; it answers with a {@code result}. */
  static String interrupt(String requestId) {
    ObjectNode line = Json.mapper().createObjectNode();
    line.put("type", "control_request");
    line.put("request_id", requestId);
    line.putObject("request").put("subtype", "interrupt");
    return Json.write(line);
  }

  /** Refuses a control request the driver does not serve, so the CLI does not wait for an answer. */
  static String unsupported(String requestId, String subtype) {
    ObjectNode line = Json.mapper().createObjectNode();
    line.put("type", "control_response");
    ObjectNode response = line.putObject("response");
    response.put("subtype", "error");
    response.put("request_id", requestId);
    response.put("error", "Roundhouse does not serve control requests of subtype '" + subtype + "'");
    return Json.write(line);
  }

  private static String success(String requestId, JsonNode answer) {
    ObjectNode line = Json.mapper().createObjectNode();
    line.put("type", "control_response");
    ObjectNode response = line.putObject("response");
    response.put("subtype", "success");
    response.put("request_id", requestId);
    response.set("response", answer);
    return Json.write(line);
  }
}
