package dev.roundhouse.mcpserver;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.ops.OperationRegistry;
import io.modelcontextprotocol.server.McpServerFeatures.SyncCompletionSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceTemplateSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The hub's resources ({@code roundhouse://…} URIs): the project list, the pending decisions, the schedules and
 * the runbooks as fixed resources; a project's board, a task, a task's transcript and a schedule's runs as
 * resource templates, with completion of
 * project names and task ids. Every read runs a read-only operation for the calling client, so a resource
 * never shows anything a tool could not. Stateless; thread-safe.
 */
final class HubResources {
  static final String SCHEME = "roundhouse://";
  static final String PROJECTS = SCHEME + "projects";
  static final String DECISIONS = SCHEME + "decisions";
  static final String BOARD = SCHEME + "projects/{project}/board";
  static final String TASK = SCHEME + "tasks/{id}";
  static final String TRANSCRIPT = SCHEME + "tasks/{id}/transcript";
  static final String SCHEDULES = SCHEME + "schedules";
  static final String RUNBOOKS = SCHEME + "runbooks";
  static final String SCHEDULE = SCHEME + "schedules/{id}";
  private static final String JSON = "application/json";
  private static final int MAX_COMPLETIONS = 100;

  private static final Pattern BOARD_URI = Pattern.compile("roundhouse://projects/([^/]+)/board");
  private static final Pattern TASK_URI = Pattern.compile("roundhouse://tasks/([0-9]+)");
  private static final Pattern TRANSCRIPT_URI = Pattern.compile("roundhouse://tasks/([0-9]+)/transcript");
  private static final Pattern SCHEDULE_URI = Pattern.compile("roundhouse://schedules/([0-9]+)");

  private HubResources() {}

  static String board(String project) {
    return SCHEME + "projects/" + project + "/board";
  }

  static String task(long id) {
    return SCHEME + "tasks/" + id;
  }

  static String transcript(long id) {
    return SCHEME + "tasks/" + id + "/transcript";
  }

  static String schedule(long id) {
    return SCHEME + "schedules/" + id;
  }

  static List<SyncResourceSpecification> resources(OperationRegistry registry) {
    return List.of(
        new SyncResourceSpecification(
            McpSchema.Resource.builder(PROJECTS, "projects").title("Projects")
                .description("Every project, by name (operation project_list).").mimeType(JSON).build(),
            (exchange, request) -> read(request.uri(), registry.invoke("project_list", actor(exchange), null))),
        new SyncResourceSpecification(
            McpSchema.Resource.builder(DECISIONS, "decisions").title("Pending decisions")
                .description("What needs you: pending permissions, questions and settings drift (operation decision_list).")
                .mimeType(JSON).build(),
            (exchange, request) -> read(request.uri(), registry.invoke("decision_list", actor(exchange), null))),
        new SyncResourceSpecification(
            McpSchema.Resource.builder(SCHEDULES, "schedules").title("Schedules")
                .description("Every schedule with its next firing and last run (operation schedule_list).").mimeType(JSON).build(),
            (exchange, request) -> read(request.uri(), registry.invoke("schedule_list", actor(exchange), null))),
        new SyncResourceSpecification(
            McpSchema.Resource.builder(RUNBOOKS, "runbooks").title("Runbooks")
                .description("Every saved prompt a task can be minted from (operation runbook_list).").mimeType(JSON).build(),
            (exchange, request) -> read(request.uri(), registry.invoke("runbook_list", actor(exchange), null))));
  }

  static List<SyncResourceTemplateSpecification> templates(OperationRegistry registry) {
    return List.of(
        template(BOARD, "board", "A project's board",
            "A project's board by project name or id: one column per status (operation project_board).",
            BOARD_URI, (exchange, project) -> registry.invoke("project_board", actor(exchange), Json.tree(Map.of("project", project)))),
        template(TASK, "task", "A task", "One task by id (operation task_get).",
            TASK_URI, (exchange, id) -> registry.invoke("task_get", actor(exchange), Json.tree(Map.of("task", Long.parseLong(id))))),
        template(TRANSCRIPT, "transcript", "A task's transcript",
            "The first page of a task's transcript in its current generation (operation task_transcript; call the tool to page).",
            TRANSCRIPT_URI, (exchange, id) -> registry.invoke("task_transcript", actor(exchange), Json.tree(Map.of("task", Long.parseLong(id))))),
        template(SCHEDULE, "schedule", "A schedule's runs",
            "One schedule by id with its recent runs: when each was due, its task, how it ended (operation schedule_runs).",
            SCHEDULE_URI, (exchange, id) -> registry.invoke("schedule_runs", actor(exchange), Json.tree(Map.of("schedule", id)))));
  }

  private interface Reader {
    JsonNode read(McpSyncServerExchange exchange, String parameter);
  }

  private static SyncResourceTemplateSpecification template(
      String uriTemplate, String name, String title, String description, Pattern uri, Reader reader) {
    return new SyncResourceTemplateSpecification(
        McpSchema.ResourceTemplate.builder(uriTemplate, name).title(title).description(description).mimeType(JSON).build(),
        (exchange, request) -> {
          Matcher matcher = uri.matcher(request.uri());
          if (!matcher.matches()) {
            throw notFound(request.uri());
          }
          return read(request.uri(), call(request.uri(), () -> reader.read(exchange, matcher.group(1))));
        });
  }

  private static JsonNode call(String uri, java.util.function.Supplier<JsonNode> read) {
    try {
      return read.get();
    } catch (RoundhouseException e) {
      throw McpError.builder(McpSchema.ErrorCodes.RESOURCE_NOT_FOUND).message(e.getMessage()).data(Map.of("uri", uri)).build();
    }
  }

  private static McpError notFound(String uri) {
    return McpError.builder(McpSchema.ErrorCodes.RESOURCE_NOT_FOUND).message("no resource " + uri).data(Map.of("uri", uri)).build();
  }

  private static McpSchema.ReadResourceResult read(String uri, JsonNode content) {
    return McpSchema.ReadResourceResult.builder(List.of(McpSchema.TextResourceContents.builder(uri, Json.write(content)).mimeType(JSON).build())).build();
  }

  /** Completion of the templates' arguments: project names (and ids) for a board, task ids for a task. */
  static List<SyncCompletionSpecification> completions(OperationRegistry registry) {
    Function<McpSyncServerExchange, List<String>> projects = projectNames(registry);
    Function<McpSyncServerExchange, List<String>> tasks = exchange -> {
      List<String> values = new ArrayList<>();
      for (JsonNode task : registry.invoke("task_list", actor(exchange), null).path("tasks")) {
        values.add(task.path("id").asText());
      }
      return values;
    };
    return List.of(
        completion(BOARD, "project", projects),
        completion(TASK, "id", tasks),
        completion(TRANSCRIPT, "id", tasks));
  }

  /** Every project's name, read for the caller. */
  static Function<McpSyncServerExchange, List<String>> projectNames(OperationRegistry registry) {
    return exchange -> {
      List<String> values = new ArrayList<>();
      for (JsonNode project : registry.invoke("project_list", actor(exchange), null).path("projects")) {
        values.add(project.path("name").asText());
      }
      return values;
    };
  }

  private static SyncCompletionSpecification completion(
      String uriTemplate, String argument, Function<McpSyncServerExchange, List<String>> candidates) {
    return completion(new McpSchema.ResourceReference(uriTemplate), argument, candidates);
  }

  /** Completes {@code argument} of {@code reference} with the candidates that start with the typed prefix. */
  static SyncCompletionSpecification completion(
      McpSchema.CompleteReference reference, String argument, Function<McpSyncServerExchange, List<String>> candidates) {
    return completion(reference, (exchange, name) -> argument.equals(name) ? candidates.apply(exchange) : List.of());
  }

  /**
   * Completes any argument of {@code reference}: {@code candidates} gives the exchange and the argument's name
   * every value it may take; those that start with the typed prefix (ignoring case) are offered, at most
   * {@link #MAX_COMPLETIONS}, with the total and whether there are more.
   */
  static SyncCompletionSpecification completion(
      McpSchema.CompleteReference reference, java.util.function.BiFunction<McpSyncServerExchange, String, List<String>> candidates) {
    return new SyncCompletionSpecification(
        reference,
        (exchange, request) -> {
          String prefix = request.argument().value() == null ? "" : request.argument().value().toLowerCase(Locale.ROOT);
          List<String> matching = candidates.apply(exchange, request.argument().name()).stream()
              .filter(value -> value.toLowerCase(Locale.ROOT).startsWith(prefix)).toList();
          List<String> shown = matching.subList(0, Math.min(matching.size(), MAX_COMPLETIONS));
          return new McpSchema.CompleteResult(
              new McpSchema.CompleteResult.CompleteCompletion(shown, matching.size(), matching.size() > shown.size()));
        });
  }

  private static Actor actor(McpSyncServerExchange exchange) {
    return Caller.actor(exchange);
  }
}
