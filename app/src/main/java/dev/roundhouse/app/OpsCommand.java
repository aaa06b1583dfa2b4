package dev.roundhouse.app;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.ops.OperationDescriptor;
import dev.roundhouse.hub.ops.OperationsReference;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code roundhouse ops}: the operations every face calls, from the offline catalog (no hub needed).
 * {@code --markdown} prints the reference kept in {@code docs/operations.md}; {@code --json} prints
 * {@code {"operations": [...]}} as {@code GET /api/ops} does.
 *
 * <p>Not thread-safe: picocli fills it and runs it once, on one thread.
 */
@Command(
    name = "ops",
    description = "List the hub's operations (works without a running hub).",
    mixinStandardHelpOptions = true)
final class OpsCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--markdown", description = "Print the Markdown reference (docs/operations.md).")
  boolean markdown;

  @Option(names = "--json", description = "Print the descriptors, schemas included, as JSON.")
  boolean json;

  @Override
  public Integer call() {
    if (markdown && json) {
      throw new ParameterException(spec.commandLine(), "give --markdown or --json, not both");
    }
    PrintWriter out = spec.commandLine().getOut();
    List<OperationDescriptor> operations = Catalog.describe();
    if (markdown) {
      out.print(OperationsReference.markdown(operations));
    } else if (json) {
      ObjectNode body = Json.mapper().createObjectNode();
      ArrayNode list = body.putArray("operations");
      operations.forEach(op -> list.add(Json.tree(op)));
      out.println(Json.write(body));
    } else {
      Table table = new Table().row("OPERATION", "EFFECT", "DESCRIPTION");
      operations.forEach(op -> table.row(op.name(), op.annotations().effect(), op.description()));
      table.print(out);
    }
    out.flush();
    return ExitCode.OK.status();
  }
}
