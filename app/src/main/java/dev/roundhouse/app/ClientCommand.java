package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hubclient.HubUnavailableException;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command that attaches to the running hub (see {@link HubEndpoint}), calls operations and prints the
 * answer: the hub's JSON with {@code --json} (the raw {@link RemoteHub#call(String, Object)}), compact text
 * from the typed calls otherwise. Subclasses implement {@link #run}; a hub that cannot be reached is
 * reported here ({@link HubEndpoint#failure}), a hub error answer exits 1 with the hub's sentence.
 *
 * <p>Not thread-safe: picocli fills it and runs it once, on one thread.
 */
abstract class ClientCommand implements Callable<Integer> {
  final Context context;

  @Spec CommandSpec spec;

  @Mixin JsonOption json;

  ClientCommand(Context context) {
    this.context = context;
  }

  @Override
  public final Integer call() {
    validate();
    PrintWriter out = spec.commandLine().getOut();
    HubEndpoint endpoint = HubEndpoint.locate(context);
    try (RemoteHub hub = endpoint.connect()) {
      run(hub, out);
    } catch (HubUnavailableException e) {
      throw endpoint.failure(e);
    } finally {
      out.flush();
    }
    return ExitCode.OK.status();
  }

  /** Checks the arguments before the hub is contacted; throws a {@code ParameterException} (exit 2). */
  void validate() {}

  /** Does the command's work against {@code hub}, printing to {@code out}. */
  abstract void run(RemoteHub hub, PrintWriter out);

  /** True when {@code --json} was given. */
  final boolean json() {
    return json.enabled;
  }

  /** Prints a JSON value on one line, as the hub sent it. */
  static void printJson(PrintWriter out, JsonNode node) {
    out.println(Json.write(node));
  }
}
