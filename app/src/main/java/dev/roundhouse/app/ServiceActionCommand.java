package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hubclient.RemoteHub;
import dev.roundhouse.services.hub.ServicesApi;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code roundhouse service start|stop|restart NAME --project P}: the operation of that name, printing the
 * service's state. Start and restart wait for an outcome ({@code --wait S}, default 60 s; 0 answers at once).
 * Not thread-safe (picocli command).
 */
abstract class ServiceActionCommand extends ClientCommand {
  @Option(names = {"-p", "--project"}, paramLabel = "P", required = true, description = "The project (id or name).")
  String project;

  @Parameters(paramLabel = "NAME", description = "The service.")
  String service;

  private final String operation;

  ServiceActionCommand(Context context, String operation) {
    super(context);
    this.operation = operation;
  }

  /** Seconds to wait for an outcome, or null. */
  Integer waitSeconds() {
    return null;
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    JsonNode state = hub.call(operation, new ServicesApi.ServiceRef(project, service, waitSeconds()));
    if (json()) {
      printJson(out, state);
      return;
    }
    out.println(state.path("name").asText() + ": " + state.path("status").asText()
        + (state.hasNonNull("pid") ? " (pid " + state.path("pid").asText() + ", PORT " + state.path("port").asInt() + ")" : "")
        + (state.hasNonNull("message") ? " — " + state.path("message").asText() : ""));
  }

  @Command(name = "start", description = "Start a service (after what it depends on) and wait for it to be ready.",
      mixinStandardHelpOptions = true)
  static final class Start extends ServiceActionCommand {
    @Option(names = "--wait", paramLabel = "S", description = "Wait up to S seconds for ready, exited or failed (default 60; 0: do not wait).")
    int wait = 60;

    Start(Context context) {
      super(context, "service_start");
    }

    @Override
    Integer waitSeconds() {
      return wait;
    }
  }

  @Command(name = "stop", description = "Stop a service: SIGTERM to its process group, SIGKILL after the grace period.",
      mixinStandardHelpOptions = true)
  static final class Stop extends ServiceActionCommand {
    Stop(Context context) {
      super(context, "service_stop");
    }
  }

  @Command(name = "restart", description = "Stop a service and start it again.", mixinStandardHelpOptions = true)
  static final class Restart extends ServiceActionCommand {
    @Option(names = "--wait", paramLabel = "S", description = "Wait up to S seconds for ready, exited or failed (default 60; 0: do not wait).")
    int wait = 60;

    Restart(Context context) {
      super(context, "service_restart");
    }

    @Override
    Integer waitSeconds() {
      return wait;
    }
  }
}
