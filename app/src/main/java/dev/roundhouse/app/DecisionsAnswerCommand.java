package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code roundhouse decisions answer ID ANSWER...}: {@code decision_answer}. Not thread-safe (picocli command). */
@Command(name = "answer", description = "Answer a pending decision with one of its options, or the text answering a question.",
    mixinStandardHelpOptions = true)
final class DecisionsAnswerCommand extends ClientCommand {
  @Parameters(index = "0", paramLabel = "ID", description = "The decision id (roundhouse decisions list).")
  long id;

  @Parameters(index = "1..*", paramLabel = "ANSWER", arity = "1..*",
      description = "One of its options (allow_once, allow_always, deny, ...), or the text answering a question; several words are joined by spaces.")
  List<String> answer;

  @Option(names = {"-m", "--message"}, paramLabel = "TEXT", description = "A note for the agent, such as why it was denied.")
  String message;

  @Option(names = "--rule", paramLabel = "PREFIX", description = "With allow_always on a shell command: the command prefix to remember.")
  String rule;

  DecisionsAnswerCommand(Context context) {
    super(context);
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    JsonNode answered = hub.call("decision_answer",
        WorkspaceInputs.of("decision", id, "answer", String.join(" ", answer), "message", message, "rule", rule));
    if (json()) {
      printJson(out, answered);
      return;
    }
    out.println("decision " + id + " " + answered.path("status").asText() + ": " + answered.path("answer").asText()
        + " (" + answered.path("title").asText() + ")");
  }
}
