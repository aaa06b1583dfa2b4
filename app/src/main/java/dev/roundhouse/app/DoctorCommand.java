package dev.roundhouse.app;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Json;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code roundhouse doctor}: one line per {@link Doctor} check ({@code ok}, {@code warn} or {@code fail});
 * exits 0 when nothing failed, 1 otherwise. {@code --json} prints {@code {"ok": bool, "checks": [...]}}.
 *
 * <p>Not thread-safe: picocli fills it and runs it once, on one thread.
 */
@Command(
    name = "doctor",
    description = "Check Java, the home folder, database, token, hub, its scheduler, port and the agent CLIs.",
    mixinStandardHelpOptions = true)
final class DoctorCommand implements Callable<Integer> {
  static final Duration TIMEOUT = Duration.ofSeconds(5);

  private final Context context;

  @Spec CommandSpec spec;

  @Option(names = "--json", description = "Print the checks as JSON.")
  boolean json;

  DoctorCommand(Context context) {
    this.context = context;
  }

  @Override
  public Integer call() {
    List<Check> checks = new Doctor(context, TIMEOUT).run();
    boolean failed = checks.stream().anyMatch(check -> check.status() == Check.Status.FAIL);
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ObjectNode body = Json.mapper().createObjectNode();
      body.put("ok", !failed);
      ArrayNode list = body.putArray("checks");
      for (Check check : checks) {
        list.addObject().put("check", check.name()).put("status", check.status().label()).put("detail", check.detail());
      }
      out.println(Json.write(body));
    } else {
      Table table = new Table();
      checks.forEach(check -> table.row(check.status().label(), check.name(), check.detail()));
      table.print(out);
    }
    out.flush();
    return failed ? ExitCode.FAILED.status() : ExitCode.OK.status();
  }
}
