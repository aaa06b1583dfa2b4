package dev.roundhouse.mcpserver;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.ops.OperationRegistry;
import io.modelcontextprotocol.server.McpServerFeatures.SyncCompletionSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;

/**
 * Prompts that make the hub useful from a chat client: {@code plan_feature} (a feature into suggested tasks on
 * a project's board) and {@code summarise_board} (a stand-up summary of a board). Each embeds the project's
 * board, read for the caller through {@code project_board}, as a {@code roundhouse://} resource, so the model
 * works from the board as it is. The {@code project} argument completes like the board template's. An unknown
 * project is a {@code -32602} error with the operation's sentence (which lists the projects). Stateless;
 * thread-safe.
 */
final class HubPrompts {
  static final String PLAN = "plan_feature";
  static final String SUMMARISE = "summarise_board";

  private HubPrompts() {}

  static List<SyncPromptSpecification> prompts(OperationRegistry registry) {
    McpSchema.PromptArgument project =
        McpSchema.PromptArgument.builder("project").title("Project").description("Project name or id").required(true).build();
    return List.of(
        new SyncPromptSpecification(
            McpSchema.Prompt.builder(PLAN).title("Plan a feature into tasks")
                .description("Break a feature down into tasks on a project's board, filed as suggestions with their order.")
                .arguments(List.of(project, McpSchema.PromptArgument.builder("feature").title("Feature")
                    .description("What to build, in a sentence or a paragraph").required(true).build()))
                .build(),
            (exchange, request) -> {
              String feature = required(request, "feature");
              JsonNode board = board(registry, exchange, required(request, "project"));
              String name = board.at("/project/name").asText();
              return result("Plan '" + feature + "' for " + name, board,
                  "Plan this feature for project " + name + " as tasks on its board:\n\n" + feature + "\n\n"
                      + "Read the board below first and do not duplicate a task that is already there. File each task with"
                      + " suggest_task (project " + name + "): a title under 80 characters, a description with what done"
                      + " means, and blocked_by for tasks that must finish first. Keep each task small enough for one agent"
                      + " turn. End with the list of what you filed, in order.");
            }),
        new SyncPromptSpecification(
            McpSchema.Prompt.builder(SUMMARISE).title("Summarise a board")
                .description("A short stand-up summary of a project's board.").arguments(List.of(project)).build(),
            (exchange, request) -> {
              JsonNode board = board(registry, exchange, required(request, "project"));
              String name = board.at("/project/name").asText();
              return result("Summary of " + name, board,
                  "Summarise the board of project " + name + " (below) for a stand-up, in under 200 words: what is in"
                      + " progress, what is blocked and on what, suggestions waiting for acceptance, what is in review,"
                      + " and what was done most recently. Name tasks as #id and title.");
            }));
  }

  /** Completion of the prompts' {@code project} argument with project names. */
  static List<SyncCompletionSpecification> completions(OperationRegistry registry) {
    return List.of(
        HubResources.completion(new McpSchema.PromptReference(PLAN), "project", HubResources.projectNames(registry)),
        HubResources.completion(new McpSchema.PromptReference(SUMMARISE), "project", HubResources.projectNames(registry)));
  }

  private static String required(McpSchema.GetPromptRequest request, String name) {
    Object value = request.arguments() == null ? null : request.arguments().get(name);
    if (value == null || value.toString().isBlank()) {
      throw McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS)
          .message("prompt " + request.name() + " needs the argument '" + name + "'").build();
    }
    return value.toString().strip();
  }

  private static JsonNode board(OperationRegistry registry, McpSyncServerExchange exchange, String project) {
    try {
      return registry.invoke("project_board", Caller.actor(exchange), Json.tree(Map.of("project", project)));
    } catch (RoundhouseException e) {
      throw McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS).message(e.getMessage()).build();
    }
  }

  private static McpSchema.GetPromptResult result(String description, JsonNode board, String instructions) {
    String uri = HubResources.board(board.at("/project/name").asText());
    McpSchema.TextResourceContents contents =
        McpSchema.TextResourceContents.builder(uri, Json.write(board)).mimeType("application/json").build();
    return McpSchema.GetPromptResult.builder(List.of(
            McpSchema.PromptMessage.builder(McpSchema.Role.USER, McpSchema.TextContent.builder(instructions).build()).build(),
            McpSchema.PromptMessage.builder(McpSchema.Role.USER, McpSchema.EmbeddedResource.builder(contents).build()).build()))
        .description(description).build();
  }
}
