package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code roundhouse task pr ID}: {@code create_pr} on the configured forge; with {@code --status},
 * {@code task_pull_requests} asking the forge now. Not thread-safe (picocli command).
 */
@Command(name = "pr", description = "Open a pull request for a task's branch, or show its pull requests (--status).", mixinStandardHelpOptions = true)
final class TaskPrCommand extends ClientCommand {
  @Parameters(paramLabel = "ID", description = "The task id.")
  long id;

  @Option(names = "--title", paramLabel = "T", description = "The title (default: the task's).")
  String title;

  @Option(names = "--body", paramLabel = "B", description = "The body (default: the task's description).")
  String body;

  @Option(names = "--base", paramLabel = "BRANCH", description = "The branch to merge into (default: the task's base).")
  String base;

  @Option(names = "--status", description = "Show the task's pull requests as the forge reports them now.")
  boolean status;

  TaskPrCommand(Context context) {
    super(context);
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    if (status) {
      JsonNode list = hub.call("task_pull_requests", WorkspaceInputs.of("task", id, "refresh", Boolean.TRUE));
      if (json()) {
        printJson(out, list);
        return;
      }
      if (list.path("pull_requests").isEmpty()) {
        out.println("task " + id + " has no pull requests");
      }
      list.path("pull_requests").forEach(pr -> out.println(line(pr)));
      return;
    }
    JsonNode created = hub.call("create_pr", WorkspaceInputs.of("task", id, "title", title, "body", body, "base", base));
    if (json()) {
      printJson(out, created);
      return;
    }
    out.println("opened " + line(created));
  }

  private static String line(JsonNode record) {
    JsonNode pr = record.path("pull_request");
    StringBuilder line = new StringBuilder("#" + pr.path("number").asLong() + " [" + pr.path("state").asText().toLowerCase(java.util.Locale.ROOT)
        + "] " + pr.path("title").asText() + " (" + pr.path("head").asText() + " -> " + pr.path("base").asText() + ") " + pr.path("url").asText());
    for (JsonNode check : pr.path("checks")) {
      line.append("\n  check ").append(check.path("name").asText()).append(": ")
          .append(check.path("conclusion").asText(check.path("status").asText()));
    }
    return line.toString();
  }
}
