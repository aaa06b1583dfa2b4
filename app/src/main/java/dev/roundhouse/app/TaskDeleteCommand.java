package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.api.BoardApi;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code roundhouse task delete ID}: {@code task_delete}. Not thread-safe (picocli command). */
@Command(name = "delete", description = "Delete a task; tasks it blocked are unblocked.", mixinStandardHelpOptions = true)
final class TaskDeleteCommand extends ClientCommand {
  @Parameters(paramLabel = "ID", description = "The task id.")
  long id;

  TaskDeleteCommand(Context context) {
    super(context);
  }

  @Override
  void run(HubClient hub, PrintWriter out) {
    JsonNode deleted = hub.call("task_delete", new BoardApi.TaskRef(id));
    if (json()) {
      printJson(out, deleted);
    } else {
      out.println("deleted task " + deleted.path("task").asLong() + " " + deleted.path("title").asText());
    }
  }
}
