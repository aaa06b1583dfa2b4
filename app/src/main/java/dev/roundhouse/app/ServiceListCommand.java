package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hubclient.RemoteHub;
import dev.roundhouse.services.hub.ServicesApi;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code roundhouse service list --project P}: {@code service_list} as a table. Not thread-safe (picocli command). */
@Command(name = "list", description = "List a project's dev services and its PORT.", mixinStandardHelpOptions = true)
final class ServiceListCommand extends ClientCommand {
  @Option(names = {"-p", "--project"}, paramLabel = "P", required = true, description = "The project (id or name).")
  String project;

  ServiceListCommand(Context context) {
    super(context);
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    JsonNode answer = hub.call("service_list", new ServicesApi.ProjectRef(project));
    if (json()) {
      printJson(out, answer);
      return;
    }
    out.println("project " + answer.path("project").asText() + ": PORT=" + answer.path("port").asInt());
    JsonNode services = answer.path("services");
    if (services.isEmpty()) {
      out.println("no services");
      return;
    }
    Table table = new Table().row("NAME", "KIND", "STATUS", "PID", "RESTARTS", "COMMAND", "MESSAGE");
    for (JsonNode service : services) {
      JsonNode state = service.path("state");
      JsonNode definition = service.path("definition");
      String command = definition.hasNonNull("command") ? definition.path("command").asText()
          : String.join(" ", Json2.strings(definition.path("argv")));
      table.row(state.path("name").asText(), state.path("kind").asText(), state.path("status").asText(),
          state.hasNonNull("pid") ? state.path("pid").asText() : "-", state.path("restarts").asInt(), command,
          state.path("message").asText(""));
    }
    table.print(out);
  }

  /** Small JSON helpers. Stateless. */
  static final class Json2 {
    private Json2() {}

    static java.util.List<String> strings(JsonNode array) {
      java.util.List<String> values = new java.util.ArrayList<>();
      array.forEach(value -> values.add(value.asText()));
      return values;
    }
  }
}
