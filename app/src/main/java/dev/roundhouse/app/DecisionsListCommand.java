package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code roundhouse decisions list}: {@code decision_list} as a table, pending first. Not thread-safe (picocli command). */
@Command(name = "list", description = "List pending decisions (with --all, answered and expired ones too).", mixinStandardHelpOptions = true)
final class DecisionsListCommand extends ClientCommand {
  @Option(names = "--project", paramLabel = "P", description = "Only this project's (id or name).")
  String project;

  @Option(names = "--task", paramLabel = "N", description = "Only this task's.")
  Long task;

  @Option(names = "--all", description = "Include answered and expired decisions, newest first.")
  boolean all;

  DecisionsListCommand(Context context) {
    super(context);
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    JsonNode listed = hub.call("decision_list", WorkspaceInputs.of("project", project, "task", task, "include_closed", all ? Boolean.TRUE : null));
    if (json()) {
      printJson(out, listed);
      return;
    }
    if (listed.path("decisions").isEmpty()) {
      out.println(all ? "no decisions" : "nothing needs you");
      return;
    }
    Table table = new Table().row("ID", "KIND", "TASK", "STATUS", "TITLE", "OPTIONS");
    for (JsonNode decision : listed.path("decisions")) {
      table.row(decision.path("id").asLong(), decision.path("kind").asText(),
          decision.hasNonNull("task_id") ? decision.path("task_id").asText() : "-",
          decision.path("status").asText() + (decision.hasNonNull("answer") ? ": " + decision.path("answer").asText() : ""),
          decision.path("title").asText(), options(decision));
    }
    table.print(out);
    out.println("answer one with: roundhouse decisions answer ID ANSWER");
  }

  private static String options(JsonNode decision) {
    if (decision.path("options").isEmpty()) {
      return "(free text)";
    }
    return Texts.join(decision.path("options"), " | ");
  }
}
