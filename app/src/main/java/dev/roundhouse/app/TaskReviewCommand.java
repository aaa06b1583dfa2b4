package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * {@code roundhouse task review ID}: the task's reviews ({@code get_review}); with {@code --approve} or
 * {@code --request-changes}, submits the user's review ({@code submit_review}), comments given as
 * {@code --comment path:line:text}; {@code --withdraw} withdraws it ({@code withdraw_review}). Not thread-safe
 * (picocli command).
 */
@Command(name = "review", description = "Show a task's reviews, or review its diff (--approve / --request-changes).", mixinStandardHelpOptions = true)
final class TaskReviewCommand extends ClientCommand {
  @Parameters(paramLabel = "ID", description = "The task id.")
  long id;

  @Option(names = "--approve", description = "Approve the task's diff.")
  boolean approve;

  @Option(names = "--request-changes", description = "Ask for changes.")
  boolean requestChanges;

  @Option(names = {"-m", "--summary"}, paramLabel = "TEXT", description = "The review's summary.")
  String summary;

  @Option(names = "--comment", paramLabel = "PATH:LINE:TEXT", description = "A comment on a line of a file of the diff (repeatable).")
  List<String> comments = new ArrayList<>();

  @Option(names = "--withdraw", description = "Withdraw your review.")
  boolean withdraw;

  TaskReviewCommand(Context context) {
    super(context);
  }

  @Override
  void validate() {
    int modes = (approve ? 1 : 0) + (requestChanges ? 1 : 0) + (withdraw ? 1 : 0);
    if (modes > 1) {
      throw new ParameterException(spec.commandLine(), "give one of --approve, --request-changes, --withdraw");
    }
    if (modes == 0 && (summary != null || !comments.isEmpty())) {
      throw new ParameterException(spec.commandLine(), "a summary or comments need --approve or --request-changes");
    }
    for (String comment : comments) {
      if (comment.split(":", 3).length < 3) {
        throw new ParameterException(spec.commandLine(), "--comment '" + comment + "' is not PATH:LINE:TEXT");
      }
    }
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    if (withdraw) {
      JsonNode withdrawn = hub.call("withdraw_review", WorkspaceInputs.of("task", id));
      if (json()) {
        printJson(out, withdrawn);
      } else {
        out.println("withdrew your review of task " + id);
      }
      return;
    }
    if (approve || requestChanges) {
      List<Map<String, Object>> anchored = new ArrayList<>();
      for (String comment : comments) {
        String[] parts = comment.split(":", 3);
        int line;
        try {
          line = Integer.parseInt(parts[1]);
        } catch (NumberFormatException e) {
          throw new ParameterException(spec.commandLine(), "--comment '" + comment + "': '" + parts[1] + "' is not a line number");
        }
        anchored.add(WorkspaceInputs.of("path", parts[0], "line", line, "body", parts[2]));
      }
      JsonNode review = hub.call("submit_review", WorkspaceInputs.of("task", id, "verdict", approve ? "approve" : "request_changes",
          "summary", summary, "comments", anchored));
      if (json()) {
        printJson(out, review);
      } else {
        out.println((approve ? "approved" : "requested changes on") + " task " + id);
      }
      return;
    }
    JsonNode reviews = hub.call("get_review", WorkspaceInputs.of("task", id));
    if (json()) {
      printJson(out, reviews);
      return;
    }
    out.println("task " + id + ": " + reviews.path("state").asText().replace('_', ' '));
    for (JsonNode review : reviews.path("reviews")) {
      out.println("  " + review.path("reviewer").asText() + " " + review.path("verdict").asText().replace('_', ' ')
          + (review.path("summary").isMissingNode() ? "" : ": " + review.path("summary").asText()));
      for (JsonNode comment : review.path("comments")) {
        out.println("    " + comment.path("path").asText() + ":" + comment.path("line").asInt() + " " + comment.path("body").asText());
      }
    }
  }
}
