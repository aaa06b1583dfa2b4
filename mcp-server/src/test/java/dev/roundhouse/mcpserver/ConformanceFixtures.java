package dev.roundhouse.mcpserver;

import dev.roundhouse.hub.core.Json;
import io.modelcontextprotocol.server.McpServerFeatures.SyncCompletionSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceTemplateSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Content;
import io.modelcontextprotocol.spec.McpSchema.LoggingLevel;
import io.modelcontextprotocol.spec.McpSchema.Role;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fixed-name tools, resources, prompts and completions that the MCP conformance suite's scenarios call,
 * each answering as the suite's reference server ({@code examples/servers/typescript/everything-server.ts}
 * of {@code @modelcontextprotocol/conformance} 0.1.16) does. Test code only: they reach a hub through the
 * package-private {@link McpOptions}, never through the product. Stateless; thread-safe.
 *
 * <p>Two of the reference server's tools are missing on purpose: {@code test_reconnection} closes the
 * call's SSE stream mid-call for the client to resume with {@code Last-Event-ID}, which the MCP Java SDK
 * cannot do (no event ids, no resumability); its scenario {@code server-sse-polling} is pending in the suite.
 * {@code test_client_elicitation_defaults} belongs to a client scenario.
 */
final class ConformanceFixtures {
  /** A 1x1 red PNG, as the reference server sends it. */
  static final String PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
  /** A minimal WAV file, as the reference server sends it. */
  static final String WAV = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";
  private static final String LOGGER = "conformance-test-server";
  private static final Pattern TEMPLATE_URI = Pattern.compile("test://template/([^/]+)/data");

  private ConformanceFixtures() {}

  /**
   * The options of a hub that the conformance suite can test: every fixture registered, and the bearer
   * check off, as the suite sends no {@code Authorization} header.
   */
  static McpOptions options() {
    return new McpOptions(new SecureRandom(), Duration.ofSeconds(5), false, McpOptions.SESSION_IDLE, tools(), resources(), templates(), prompts(), completions());
  }

  static List<SyncToolSpecification> tools() {
    return List.of(
        tool("test_simple_text", "Tests simple text content response", noArguments(),
            (exchange, request) -> result(text("This is a simple text response for testing."))),
        tool("test_image_content", "Tests image content response", noArguments(),
            (exchange, request) -> result(image())),
        tool("test_audio_content", "Tests audio content response", noArguments(),
            (exchange, request) -> result(McpSchema.AudioContent.builder(WAV, "audio/wav").build())),
        tool("test_embedded_resource", "Tests embedded resource content response", noArguments(),
            (exchange, request) -> result(embedded("test://embedded-resource", "text/plain", "This is an embedded resource content."))),
        tool("test_multiple_content_types", "Tests response with multiple content types (text, image, resource)", noArguments(),
            (exchange, request) -> result(
                text("Multiple content types test:"),
                image(),
                embedded("test://mixed-content-resource", "application/json", "{\"test\":\"data\",\"value\":123}"))),
        tool("test_tool_with_logging", "Tests tool that emits log messages during execution", noArguments(),
            (exchange, request) -> {
              log(exchange, "Tool execution started");
              log(exchange, "Tool processing data");
              log(exchange, "Tool execution completed");
              return result(text("Tool with logging executed successfully"));
            }),
        tool("test_tool_with_progress", "Tests tool that reports progress notifications", noArguments(),
            (exchange, request) -> {
              Object token = request.meta() == null ? null : request.meta().get("progressToken");
              if (token != null) {
                for (int step : new int[] {0, 50, 100}) {
                  exchange.progressNotification(McpSchema.ProgressNotification.builder(token, step)
                      .total(100.0).message("Completed step " + step + " of 100").build());
                }
              }
              return result(text(String.valueOf(token == null ? 0 : token)));
            }),
        tool("test_error_handling", "Tests error response handling", noArguments(),
            (exchange, request) -> CallToolResult.builder()
                .addTextContent("This tool intentionally returns an error for testing").isError(true).build()),
        tool("test_sampling", "Tests server-initiated sampling (LLM completion request)",
            stringArgument("prompt", "The prompt to send to the LLM"),
            (exchange, request) -> sample(exchange, argument(request, "prompt"))),
        tool("test_elicitation", "Tests server-initiated elicitation (user input request)",
            stringArgument("message", "The message to show the user"),
            (exchange, request) -> elicit(exchange, argument(request, "message"),
                Map.of("type", "object",
                    "properties", Map.of("response", Map.of("type", "string", "description", "User's response")),
                    "required", List.of("response")),
                "User response: ", "Elicitation not supported or error: ")),
        tool("test_elicitation_sep1034_defaults", "Tests elicitation with default values per SEP-1034", noArguments(),
            (exchange, request) -> elicit(exchange, "Please review and update the form fields with defaults",
                object(ordered(
                    "name", ordered("type", "string", "description", "User name", "default", "John Doe"),
                    "age", ordered("type", "integer", "description", "User age", "default", 30),
                    "score", ordered("type", "number", "description", "User score", "default", 95.5),
                    "status", ordered("type", "string", "description", "User status",
                        "enum", List.of("active", "inactive", "pending"), "default", "active"),
                    "verified", ordered("type", "boolean", "description", "Verification status", "default", true))),
                "Elicitation completed: ", "Elicitation not supported or error: ")),
        tool("test_elicitation_sep1330_enums", "Tests elicitation with enum schema improvements per SEP-1330", noArguments(),
            (exchange, request) -> elicit(exchange, "Please select options from the enum fields",
                object(ordered(
                    "untitledSingle", ordered("type", "string", "description", "Select one option",
                        "enum", List.of("option1", "option2", "option3")),
                    "titledSingle", ordered("type", "string", "description", "Select one option with titles",
                        "oneOf", titled("First Option", "Second Option", "Third Option")),
                    "legacyEnum", ordered("type", "string", "description", "Select one option (legacy)",
                        "enum", List.of("opt1", "opt2", "opt3"), "enumNames", List.of("Option One", "Option Two", "Option Three")),
                    "untitledMulti", ordered("type", "array", "description", "Select multiple options", "minItems", 1, "maxItems", 3,
                        "items", ordered("type", "string", "enum", List.of("option1", "option2", "option3"))),
                    "titledMulti", ordered("type", "array", "description", "Select multiple options with titles",
                        "minItems", 1, "maxItems", 3,
                        "items", ordered("anyOf", titled("First Choice", "Second Choice", "Third Choice"))))),
                "Elicitation completed: ", "Elicitation not supported or error: ")),
        tool("json_schema_2020_12_tool", "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)",
            ordered(
                "$schema", "https://json-schema.org/draft/2020-12/schema",
                "type", "object",
                "$defs", ordered("address", ordered("type", "object",
                    "properties", ordered("street", Map.of("type", "string"), "city", Map.of("type", "string")))),
                "properties", ordered("name", Map.of("type", "string"), "address", Map.of("$ref", "#/$defs/address")),
                "additionalProperties", false),
            (exchange, request) -> result(text(
                "JSON Schema 2020-12 tool called with: " + Json.write(request.arguments() == null ? Map.of() : request.arguments())))));
  }

  static List<SyncResourceSpecification> resources() {
    return List.of(
        resource("test://static-text", "static-text", "Static Text Resource", "A static text resource for testing", "text/plain",
            uri -> McpSchema.TextResourceContents.builder(uri, "This is the content of the static text resource.").mimeType("text/plain").build()),
        resource("test://static-binary", "static-binary", "Static Binary Resource", "A static binary resource (image) for testing", "image/png",
            uri -> McpSchema.BlobResourceContents.builder(uri, PNG).mimeType("image/png").build()),
        resource("test://watched-resource", "watched-resource", "Watched Resource", "A resource that auto-updates every 3 seconds", "text/plain",
            uri -> McpSchema.TextResourceContents.builder(uri, "Watched resource content").mimeType("text/plain").build()));
  }

  static List<SyncResourceTemplateSpecification> templates() {
    return List.of(new SyncResourceTemplateSpecification(
        McpSchema.ResourceTemplate.builder("test://template/{id}/data", "template").title("Resource Template")
            .description("A resource template with parameter substitution").mimeType("application/json").build(),
        (exchange, request) -> {
          Matcher matcher = TEMPLATE_URI.matcher(request.uri());
          if (!matcher.matches()) {
            throw McpError.builder(McpSchema.ErrorCodes.RESOURCE_NOT_FOUND).message("no resource " + request.uri()).build();
          }
          String id = matcher.group(1);
          String json = "{\"id\":\"" + id + "\",\"templateTest\":true,\"data\":\"Data for ID: " + id + "\"}";
          return McpSchema.ReadResourceResult.builder(List.of(
              McpSchema.TextResourceContents.builder(request.uri(), json).mimeType("application/json").build())).build();
        }));
  }

  static List<SyncPromptSpecification> prompts() {
    return List.of(
        new SyncPromptSpecification(
            McpSchema.Prompt.builder("test_simple_prompt").title("Simple Test Prompt").description("A simple prompt without arguments").build(),
            (exchange, request) -> prompt(message(text("This is a simple prompt for testing.")))),
        new SyncPromptSpecification(
            McpSchema.Prompt.builder("test_prompt_with_arguments").title("Prompt With Arguments").description("A prompt with required arguments")
                .arguments(List.of(promptArgument("arg1", "First test argument"), promptArgument("arg2", "Second test argument"))).build(),
            (exchange, request) -> prompt(message(text(
                "Prompt with arguments: arg1='" + promptArgument(request, "arg1") + "', arg2='" + promptArgument(request, "arg2") + "'")))),
        new SyncPromptSpecification(
            McpSchema.Prompt.builder("test_prompt_with_embedded_resource").title("Prompt With Embedded Resource")
                .description("A prompt that includes an embedded resource")
                .arguments(List.of(promptArgument("resourceUri", "URI of the resource to embed"))).build(),
            (exchange, request) -> prompt(
                message(embedded(promptArgument(request, "resourceUri"), "text/plain", "Embedded resource content for testing.")),
                message(text("Please process the embedded resource above.")))),
        new SyncPromptSpecification(
            McpSchema.Prompt.builder("test_prompt_with_image").title("Prompt With Image").description("A prompt that includes image content").build(),
            (exchange, request) -> prompt(
                message(image()),
                message(text("Please analyze the image above.")))));
  }

  /** As the reference server: every completion request gets no values. */
  static List<SyncCompletionSpecification> completions() {
    BiFunction<McpSyncServerExchange, McpSchema.CompleteRequest, McpSchema.CompleteResult> none =
        (exchange, request) -> new McpSchema.CompleteResult(new McpSchema.CompleteResult.CompleteCompletion(List.of(), 0, false));
    return List.of(
        new SyncCompletionSpecification(new McpSchema.PromptReference("test_prompt_with_arguments"), none),
        new SyncCompletionSpecification(new McpSchema.PromptReference("test_prompt_with_embedded_resource"), none),
        new SyncCompletionSpecification(new McpSchema.ResourceReference("test://template/{id}/data"), none));
  }

  private static SyncToolSpecification tool(
      String name, String description, Map<String, Object> inputSchema,
      BiFunction<McpSyncServerExchange, McpSchema.CallToolRequest, CallToolResult> handler) {
    return SyncToolSpecification.builder()
        .tool(McpSchema.Tool.builder(name, inputSchema).description(description).build())
        .callHandler(handler)
        .build();
  }

  private static SyncResourceSpecification resource(
      String uri, String name, String title, String description, String mimeType,
      java.util.function.Function<String, McpSchema.ResourceContents> contents) {
    return new SyncResourceSpecification(
        McpSchema.Resource.builder(uri, name).title(title).description(description).mimeType(mimeType).build(),
        (exchange, request) -> McpSchema.ReadResourceResult.builder(List.of(contents.apply(request.uri()))).build());
  }

  // The SDK marks sampling deprecated (its draft protocol changes it); the suite's protocol versions have it.
  @SuppressWarnings("deprecation")
  private static CallToolResult sample(McpSyncServerExchange exchange, String prompt) {
    try {
      McpSchema.CreateMessageResult answer = exchange.createMessage(
          McpSchema.CreateMessageRequest.builder(List.of(new McpSchema.SamplingMessage(Role.USER, text(prompt))), 100).build());
      String text = answer.content() instanceof McpSchema.TextContent content ? content.text() : "No response";
      return result(text("LLM response: " + text));
    } catch (RuntimeException e) {
      return result(text("Sampling not supported or error: " + e.getMessage()));
    }
  }

  private static CallToolResult elicit(
      McpSyncServerExchange exchange, String message, Map<String, Object> schema, String answered, String failed) {
    try {
      McpSchema.ElicitResult answer = exchange.createElicitation(McpSchema.ElicitFormRequest.builder(message, schema).build());
      String content = Json.write(answer.content() == null ? Map.of() : answer.content());
      return result(text(answered + "action=" + answer.action().name().toLowerCase(java.util.Locale.ROOT)
          + ", content=" + content));
    } catch (RuntimeException e) {
      return result(text(failed + e.getMessage()));
    }
  }

  // The SDK marks MCP logging deprecated (its draft protocol drops it); the suite's protocol versions have it.
  @SuppressWarnings("deprecation")
  private static void log(McpSyncServerExchange exchange, String message) {
    exchange.loggingNotification(McpSchema.LoggingMessageNotification.builder(LoggingLevel.INFO, message).logger(LOGGER).build());
  }

  private static CallToolResult result(Content... content) {
    return CallToolResult.builder().content(List.of(content)).build();
  }

  private static McpSchema.TextContent text(String text) {
    return McpSchema.TextContent.builder(text).build();
  }

  private static McpSchema.ImageContent image() {
    return McpSchema.ImageContent.builder(PNG, "image/png").build();
  }

  private static McpSchema.EmbeddedResource embedded(String uri, String mimeType, String text) {
    return McpSchema.EmbeddedResource.builder(McpSchema.TextResourceContents.builder(uri, text).mimeType(mimeType).build()).build();
  }

  private static McpSchema.PromptMessage message(Content content) {
    return new McpSchema.PromptMessage(Role.USER, content);
  }

  private static McpSchema.GetPromptResult prompt(McpSchema.PromptMessage... messages) {
    return McpSchema.GetPromptResult.builder(List.of(messages)).build();
  }

  private static McpSchema.PromptArgument promptArgument(String name, String description) {
    return McpSchema.PromptArgument.builder(name).description(description).required(true).build();
  }

  private static String promptArgument(McpSchema.GetPromptRequest request, String name) {
    Object value = request.arguments() == null ? null : request.arguments().get(name);
    if (value == null) {
      throw McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS).message("prompt " + request.name() + " needs the argument '" + name + "'").build();
    }
    return value.toString();
  }

  private static String argument(McpSchema.CallToolRequest request, String name) {
    Object value = request.arguments() == null ? null : request.arguments().get(name);
    return value == null ? "" : value.toString();
  }

  private static Map<String, Object> noArguments() {
    return ordered("type", "object", "properties", Map.of());
  }

  private static Map<String, Object> stringArgument(String name, String description) {
    return ordered("type", "object",
        "properties", Map.of(name, ordered("type", "string", "description", description)),
        "required", List.of(name));
  }

  private static Map<String, Object> object(Map<String, Object> properties) {
    return ordered("type", "object", "properties", properties, "required", List.of());
  }

  private static List<Map<String, Object>> titled(String... titles) {
    return java.util.stream.IntStream.range(0, titles.length)
        .mapToObj(i -> ordered("const", "value" + (i + 1), "title", titles[i])).toList();
  }

  /** A map of {@code keysAndValues} (key, value, key, value…) that keeps their order, as JSON Schema reads best. */
  private static Map<String, Object> ordered(Object... keysAndValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }
}
