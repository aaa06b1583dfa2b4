package dev.roundhouse.drivers.script;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads the script format ({@code docs/drivers/script.md}) into a {@link Script}, refusing anything it
 * does not understand with a message that names the step: steps count from 1, and a step inside a {@code
 * repeat} or a tool's {@code denied} list is named by its path, such as {@code step 2.1}. Stateless.
 */
final class ScriptParser {
  static final int MAX_REPEAT = 1_000_000;
  static final long MAX_DELAY_MS = 3_600_000;

  /** Every step kind, in the order error messages list them. */
  static final List<String> KINDS =
      List.of(
          "text", "message", "thought", "plan", "tool", "ask_user", "usage", "delay_ms", "repeat", "call_op", "error",
          "fail", "hang", "result");

  /** The fields each kind takes besides its own key. */
  private static final Map<String, List<String>> FIELDS =
      Map.of(
          "tool", List.of("id", "input", "command", "description", "ask", "output", "result", "error", "denied"),
          "ask_user", List.of("options"),
          "repeat", List.of("steps"),
          "call_op", List.of("input"),
          "result", List.of("text"));

  private static final List<String> TOP_LEVEL = List.of("session", "linger", "steps");
  private static final List<String> USAGE_FIELDS = List.of("input", "output", "cost", "estimated", "context", "window");

  private static final ObjectMapper STRICT =
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private ScriptParser() {}

  /** Parses JSON text; a syntax error names its line and column. */
  static Script parse(String json) {
    return parse(readTree(json));
  }

  /** Reads JSON text strictly (duplicate keys and trailing content refused). */
  static JsonNode readTree(String json) {
    try {
      JsonNode root = STRICT.readTree(json);
      if (root == null || root.isMissingNode()) {
        throw new InvalidScriptException("the script is empty");
      }
      return root;
    } catch (JsonProcessingException e) {
      JsonLocation where = e.getLocation();
      String at = where == null ? "" : " at line " + where.getLineNr() + ", column " + where.getColumnNr();
      throw new InvalidScriptException("the script is not valid JSON" + at + ": " + e.getOriginalMessage());
    }
  }

  static Script parse(JsonNode root) {
    if (!root.isObject()) {
      throw new InvalidScriptException("a script must be a JSON object with a 'steps' array, not " + show(root));
    }
    for (String field : names(root)) {
      if (!TOP_LEVEL.contains(field)) {
        throw new InvalidScriptException(
            "unknown top-level field '" + field + "' (expected " + String.join(", ", TOP_LEVEL) + ")");
      }
    }
    String session = optionalString(root, "session", "the script");
    if (session != null && session.isBlank()) {
      throw new InvalidScriptException("the script's 'session' must not be blank");
    }
    Boolean linger = root.has("linger") ? bool(root, "linger", "the script") : null;
    JsonNode steps = root.get("steps");
    if (steps == null) {
      throw new InvalidScriptException("the script has no 'steps' array");
    }
    return new Script(session, linger, steps(steps, "", "the script's 'steps'"));
  }

  private static List<Step> steps(JsonNode array, String prefix, String what) {
    if (!array.isArray()) {
      throw new InvalidScriptException(what + " must be an array of steps, not " + show(array));
    }
    List<Step> steps = new ArrayList<>(array.size());
    boolean ended = false;
    for (int i = 0; i < array.size(); i++) {
      String name = "step " + prefix + (i + 1);
      if (ended) {
        throw new InvalidScriptException(name + ": comes after a 'result' step, which ends the answer, so it would never play");
      }
      Step step = step(array.get(i), name, prefix + (i + 1) + ".");
      ended = step instanceof Step.Result;
      steps.add(step);
    }
    return steps;
  }

  private static Step step(JsonNode node, String name, String childPrefix) {
    if (!node.isObject()) {
      throw new InvalidScriptException(name + ": a step must be a JSON object, not " + show(node));
    }
    String kind = kindOf(node, name);
    List<String> allowed = FIELDS.getOrDefault(kind, List.of());
    for (String field : names(node)) {
      if (!field.equals(kind) && !allowed.contains(field)) {
        throw new InvalidScriptException(
            name
                + ": unknown field '"
                + field
                + "' in a "
                + kind
                + " step ("
                + (allowed.isEmpty() ? "it takes no other field" : "expected " + String.join(", ", allowed))
                + ")");
      }
    }
    String where = name + ": ";
    return switch (kind) {
      case "text" -> new Step.Text(requiredString(node, "text", name, true));
      case "message" -> new Step.Message(requiredString(node, "message", name, true));
      case "thought" -> new Step.Thought(requiredString(node, "thought", name, true));
      case "plan" -> plan(node.get("plan"), name);
      case "tool" -> tool(node, name, childPrefix);
      case "ask_user" ->
          new Step.AskUser(requiredString(node, "ask_user", name, false), stringList(node, "options", name));
      case "usage" -> usage(node.get("usage"), name);
      case "delay_ms" -> new Step.Delay(wholeNumber(node.get("delay_ms"), "delay_ms", name, MAX_DELAY_MS));
      case "repeat" -> {
        int times = (int) wholeNumber(node.get("repeat"), "repeat", name, MAX_REPEAT);
        if (!node.has("steps")) {
          throw new InvalidScriptException(where + "a repeat step needs a 'steps' array");
        }
        yield new Step.Repeat(times, steps(node.get("steps"), childPrefix, name + ": 'steps'"));
      }
      case "call_op" -> new Step.CallOp(requiredString(node, "call_op", name, false), objectOrEmpty(node, "input", name));
      case "error" -> new Step.Error(requiredString(node, "error", name, false));
      case "fail" -> new Step.Fail(requiredString(node, "fail", name, false));
      case "hang" -> {
        if (!node.get("hang").isBoolean() || !node.get("hang").booleanValue()) {
          throw new InvalidScriptException(where + "'hang' must be true, not " + show(node.get("hang")));
        }
        yield new Step.Hang();
      }
      case "result" -> new Step.Result(requiredString(node, "result", name, false), optionalString(node, "text", name));
      default -> throw new IllegalStateException("kind " + kind);
    };
  }

  private static final List<String> PLAN_STATUSES = List.of("pending", "in_progress", "completed");
  private static final List<String> PLAN_PRIORITIES = List.of("high", "medium", "low");

  /** {@code "plan": [{"content": "…", "status": "pending", "priority": "high"}, …]}; a bare string is a pending entry. */
  private static Step plan(JsonNode entries, String name) {
    if (entries == null || !entries.isArray()) {
      throw new InvalidScriptException(name + ": 'plan' must be an array of entries, not " + show(entries));
    }
    List<dev.roundhouse.hub.spi.TurnEvent.PlanEntry> plan = new java.util.ArrayList<>();
    for (JsonNode entry : entries) {
      if (entry.isTextual()) {
        plan.add(new dev.roundhouse.hub.spi.TurnEvent.PlanEntry(entry.asText(), null, null));
        continue;
      }
      if (!entry.isObject() || !entry.path("content").isTextual()) {
        throw new InvalidScriptException(name + ": each plan entry needs 'content' (a string), not " + show(entry));
      }
      String status = entry.path("status").asText("pending");
      String priority = entry.path("priority").asText("medium");
      if (!PLAN_STATUSES.contains(status) || !PLAN_PRIORITIES.contains(priority)) {
        throw new InvalidScriptException(name + ": a plan entry's status is one of " + PLAN_STATUSES + " and its priority one of "
            + PLAN_PRIORITIES + ", not " + show(entry));
      }
      plan.add(new dev.roundhouse.hub.spi.TurnEvent.PlanEntry(entry.get("content").asText(), status, priority));
    }
    return new Step.Plan(plan);
  }

  /**
   * A step's kind is the one kind key whose other fields account for every other kind key present: {@code
   * {"tool": …, "result": …}} is a tool step with a result, {@code {"result": …, "text": …}} a result with
   * a text.
   */
  private static String kindOf(JsonNode node, String name) {
    List<String> present = new ArrayList<>();
    for (String field : names(node)) {
      if (KINDS.contains(field)) {
        present.add(field);
      }
    }
    if (present.isEmpty()) {
      List<String> fields = names(node);
      String expected = " (expected one of " + String.join(", ", KINDS) + ")";
      if (fields.isEmpty()) {
        throw new InvalidScriptException(name + ": an empty step" + expected);
      }
      if (fields.size() == 1) {
        throw new InvalidScriptException(name + ": unknown step kind '" + fields.get(0) + "'" + expected);
      }
      throw new InvalidScriptException(
          name + ": no step kind among its fields '" + String.join("', '", fields) + "'" + expected);
    }
    List<String> candidates = new ArrayList<>();
    for (String kind : present) {
      List<String> allowed = FIELDS.getOrDefault(kind, List.of());
      if (present.stream().allMatch(other -> other.equals(kind) || allowed.contains(other))) {
        candidates.add(kind);
      }
    }
    if (candidates.size() != 1) {
      throw new InvalidScriptException(
          name + ": a step has one kind, but this one has '" + String.join("' and '", present) + "'");
    }
    return candidates.get(0);
  }

  private static Step tool(JsonNode node, String name, String childPrefix) {
    String tool = requiredString(node, "tool", name, false);
    String callId = optionalString(node, "id", name);
    if (callId != null && callId.isBlank()) {
      throw new InvalidScriptException(name + ": 'id' must not be blank");
    }
    JsonNode input = objectOrEmpty(node, "input", name);
    String command = optionalString(node, "command", name);
    if (command == null && input.path("command").isTextual()) {
      command = input.get("command").textValue();
    }
    List<String> output;
    JsonNode outputNode = node.get("output");
    if (outputNode == null) {
      output = List.of();
    } else if (outputNode.isTextual()) {
      output = List.of(outputNode.textValue());
    } else {
      output = stringList(node, "output", name);
    }
    String result = node.has("result") ? requiredString(node, "result", name, true) : "";
    boolean ask = node.has("ask") && bool(node, "ask", name);
    boolean error = node.has("error") && bool(node, "error", name);
    List<Step> denied = List.of();
    if (node.has("denied")) {
      if (!ask) {
        throw new InvalidScriptException(name + ": 'denied' steps need \"ask\": true (only an asked call can be denied)");
      }
      denied = steps(node.get("denied"), childPrefix, name + ": 'denied'");
    }
    return new Step.Tool(
        callId, tool, input, command, optionalString(node, "description", name), ask, output, result, error, denied);
  }

  private static Step usage(JsonNode usage, String name) {
    if (!usage.isObject()) {
      throw new InvalidScriptException(
          name + ": 'usage' must be an object like {\"input\": 100, \"output\": 20}, not " + show(usage));
    }
    for (String field : names(usage)) {
      if (!USAGE_FIELDS.contains(field)) {
        throw new InvalidScriptException(
            name + ": unknown usage field '" + field + "' (expected " + String.join(", ", USAGE_FIELDS) + ")");
      }
    }
    long input = usage.has("input") ? wholeNumber(usage.get("input"), "usage.input", name, Long.MAX_VALUE) : 0;
    long output = usage.has("output") ? wholeNumber(usage.get("output"), "usage.output", name, Long.MAX_VALUE) : 0;
    Double cost = null;
    JsonNode costNode = usage.get("cost");
    if (costNode != null && !costNode.isNull()) {
      if (!costNode.isNumber() || costNode.doubleValue() < 0 || !Double.isFinite(costNode.doubleValue())) {
        throw new InvalidScriptException(
            name + ": 'usage.cost' must be a number of US dollars, 0 or more, not " + show(costNode));
      }
      cost = costNode.doubleValue();
    }
    boolean estimated = usage.has("estimated") && bool(usage, "estimated", name);
    Long context = usage.has("context") ? wholeNumber(usage.get("context"), "usage.context", name, Long.MAX_VALUE) : null;
    Long window = usage.has("window") ? wholeNumber(usage.get("window"), "usage.window", name, Long.MAX_VALUE) : null;
    if ((context == null) != (window == null)) {
      throw new InvalidScriptException(name + ": 'usage.context' and 'usage.window' go together (tokens in context, and the window's size)");
    }
    return new Step.Usage(input, output, cost, estimated, context, window);
  }

  private static String requiredString(JsonNode node, String field, String name, boolean emptyAllowed) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual()) {
      throw new InvalidScriptException(
          name + ": '" + field + "' must be a string, not " + (value == null ? "missing" : show(value)));
    }
    if (!emptyAllowed && value.textValue().isBlank()) {
      throw new InvalidScriptException(name + ": '" + field + "' must not be blank");
    }
    return value.textValue();
  }

  private static String optionalString(JsonNode node, String field, String name) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isTextual()) {
      throw new InvalidScriptException(prefix(name) + "'" + field + "' must be a string, not " + show(value));
    }
    return value.textValue();
  }

  private static boolean bool(JsonNode node, String field, String name) {
    JsonNode value = node.get(field);
    if (!value.isBoolean()) {
      throw new InvalidScriptException(prefix(name) + "'" + field + "' must be true or false, not " + show(value));
    }
    return value.booleanValue();
  }

  private static long wholeNumber(JsonNode value, String field, String name, long max) {
    if (!value.isIntegralNumber() || !value.canConvertToLong() || value.longValue() < 0 || value.longValue() > max) {
      String range = max == Long.MAX_VALUE ? "0 or more" : "from 0 to " + max;
      throw new InvalidScriptException(
          name + ": '" + field + "' must be a whole number " + range + ", not " + show(value));
    }
    return value.longValue();
  }

  private static List<String> stringList(JsonNode node, String field, String name) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return List.of();
    }
    if (!value.isArray()) {
      throw new InvalidScriptException(name + ": '" + field + "' must be an array of strings, not " + show(value));
    }
    List<String> strings = new ArrayList<>(value.size());
    for (int i = 0; i < value.size(); i++) {
      JsonNode element = value.get(i);
      if (!element.isTextual()) {
        throw new InvalidScriptException(
            name + ": '" + field + "' must be an array of strings, but element " + (i + 1) + " is " + show(element));
      }
      strings.add(element.textValue());
    }
    return strings;
  }

  private static JsonNode objectOrEmpty(JsonNode node, String field, String name) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return JsonNodeFactory.instance.objectNode();
    }
    if (!value.isObject()) {
      throw new InvalidScriptException(name + ": '" + field + "' must be a JSON object, not " + show(value));
    }
    return value.deepCopy();
  }

  private static List<String> names(JsonNode object) {
    List<String> names = new ArrayList<>();
    for (Map.Entry<String, JsonNode> property : object.properties()) {
      names.add(property.getKey());
    }
    return names;
  }

  private static String prefix(String name) {
    return name.startsWith("step ") ? name + ": " : name + "'s ";
  }

  /** A value as it would appear in the script, cut short when long. */
  static String show(JsonNode value) {
    String text = value.toString();
    return text.length() > 60 ? text.substring(0, 57) + "..." : text;
  }
}
