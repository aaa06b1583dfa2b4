package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code roundhouse task diff ID}: {@code task_diff}, a line per changed file ({@code +added -removed}, its kind,
 * {@code (uncommitted)} when it has changes not yet committed), and with {@code --patch} each file's hunks. Not
 * thread-safe (picocli command).
 */
@Command(name = "diff", description = "Show what a task changed against its base branch.", mixinStandardHelpOptions = true)
final class TaskDiffCommand extends ClientCommand {
  @Parameters(paramLabel = "ID", description = "The task id.")
  long id;

  @Option(names = {"-p", "--patch"}, description = "Show each file's hunks.")
  boolean patch;

  @Option(names = "--path", paramLabel = "FILE", description = "Only this file.")
  String path;

  TaskDiffCommand(Context context) {
    super(context);
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    JsonNode view = hub.call("task_diff", WorkspaceInputs.of("task", id, "hunks", patch ? Boolean.TRUE : null, "path", path));
    if (json()) {
      printJson(out, view);
      return;
    }
    JsonNode diff = view.path("diff");
    out.println("task " + id + " on " + view.path("branch").asText() + " against " + diff.path("base_branch").asText()
        + " (merge-base " + Texts.abbreviate(diff.path("merge_base").asText(), 12) + "): "
        + Texts.count(diff.path("files").size(), "file") + ", +" + diff.path("added").asInt() + " -" + diff.path("removed").asInt());
    Table table = new Table();
    for (JsonNode file : diff.path("files")) {
      String counts = file.path("binary").asBoolean() ? "binary" : "+" + file.path("added").asInt() + " -" + file.path("removed").asInt();
      String name = file.path("kind").asText().equals("RENAMED")
          ? file.path("old_path").asText() + " -> " + file.path("path").asText() : file.path("path").asText();
      table.row("  " + file.path("kind").asText().toLowerCase(java.util.Locale.ROOT), counts,
          name + (file.path("uncommitted").asBoolean() ? " (uncommitted)" : ""));
    }
    table.print(out);
    if (patch) {
      for (JsonNode file : diff.path("files")) {
        if (!file.path("hunks").isEmpty()) {
          out.println("--- " + file.path("path").asText());
          file.path("hunks").forEach(hunk -> out.print(hunk.path("text").asText().endsWith("\n")
              ? hunk.path("text").asText() : hunk.path("text").asText() + "\n"));
        }
      }
    }
  }
}
