package dev.roundhouse.app;

import dev.roundhouse.hub.core.Durations;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.api.BoardApi;
import dev.roundhouse.hub.api.TurnApi;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.RunOutcome;
import dev.roundhouse.hub.model.TurnStatus;
import dev.roundhouse.hubclient.HubErrorException;
import dev.roundhouse.hubclient.HubUnavailableException;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code roundhouse run}: the build-server face. Files a task from a prompt (or runs a runbook) and starts one
 * <em>unattended</em> turn on it: a permission that would ask is denied, a question or settings drift fails the
 * run, the session never lingers. With {@code --wait} it streams the transcript and exits with the run's
 * outcome ({@code turn_outcome}): 0 done, 1 failed, 6 needed a person (denied or asked), 7 timed out. It talks
 * to a running hub ({@code --url}/{@code --token}, {@code ROUNDHOUSE_URL}/{@code ROUNDHOUSE_TOKEN}, or the
 * home's lock file), or with {@code --ephemeral} to a throwaway hub of its own ({@link EphemeralHub}).
 *
 * <p>Not thread-safe: picocli fills it and runs it once; the main thread reads the stream while a watchdog
 * thread ({@link RunFollower}) may stop the turn on timeout.
 */
@Command(
    name = "run",
    description = "Run one task unattended (from a prompt or a runbook); with --wait stream it and exit with its outcome.",
    mixinStandardHelpOptions = true)
final class RunCommand implements Callable<Integer> {
  static final int TITLE_WIDTH = 80;

  private final Context context;

  @Spec CommandSpec spec;

  @Mixin JsonOption json;

  @Option(names = "--project", required = true, paramLabel = "P",
      description = "Project id or name; with --ephemeral, the project's folder (a path).")
  String project;

  @ArgGroup(exclusive = true, multiplicity = "1")
  What what;

  /** Exactly one of the prompt and the runbook. */
  static final class What {
    @Option(names = "--prompt", paramLabel = "TEXT", description = "What the agent should do; its first line becomes the task's title.")
    String prompt;

    @Option(names = "--runbook", paramLabel = "R", description = "A runbook's id or name (runbook_run).")
    String runbook;
  }

  @Option(names = "--driver", paramLabel = "D", description = "Driver (default: the project's agent).")
  String driver;

  @Option(names = "--model", paramLabel = "M", description = "Model, when the driver offers several (with --prompt).")
  String model;

  @Option(names = "--wait", description = "Stream the transcript and exit with the run's outcome (0 done, 1 failed, 6 needed a person, 7 timed out).")
  boolean wait;

  @Option(names = "--timeout", paramLabel = "T", converter = DurationOption.class,
      description = "With --wait: stop the turn and exit 7 after this long (90s, 30m, 2h).")
  Duration timeout;

  @Option(names = "--ephemeral",
      description = "No hub needed: a throwaway hub in a temporary home, deleted afterwards; implies --wait; --project is a folder.")
  boolean ephemeral;

  @Option(names = "--url", paramLabel = "URL", description = "The hub's URL (default: ROUNDHOUSE_URL, else the home's running hub).")
  String url;

  @Option(names = "--token", paramLabel = "TOKEN",
      description = "The hub's token (default: ROUNDHOUSE_TOKEN, else the home's token file); prefer the variable, which ps does not show.")
  String token;

  RunCommand(Context context) {
    this.context = context;
  }

  @Override
  public Integer call() {
    validate();
    PrintWriter out = spec.commandLine().getOut();
    try {
      if (!ephemeral) {
        return run(HubEndpoint.locate(context, url, token), project, out);
      }
      Path folder = context.resolve(project);
      if (!Files.isDirectory(folder)) {
        throw new CliFailure(ExitCode.FAILED, "not_a_folder", "--project " + project + " is not a folder (" + folder + "); with --ephemeral it names the project's folder");
      }
      try (EphemeralHub hub = EphemeralHub.open(context)) {
        HubEndpoint endpoint = hub.endpoint();
        String name = projectName(folder);
        try (RemoteHub client = endpoint.connect()) {
          Project created = client.projectCreate(new BoardApi.ProjectCreate(name, folder.toString(), driver, null));
          notice("a throwaway hub (home " + hub.home() + ") runs project " + created.name() + " at " + folder);
        } catch (HubUnavailableException e) {
          throw endpoint.failure(e);
        }
        return run(endpoint, name, out);
      }
    } finally {
      out.flush();
    }
  }

  private void validate() {
    if (ephemeral) {
      wait = true;
      if (url != null || token != null) {
        throw new ParameterException(spec.commandLine(), "--ephemeral runs its own hub: it takes no --url or --token");
      }
      if (what.runbook != null) {
        throw new ParameterException(spec.commandLine(), "--ephemeral starts from an empty home with no runbooks: use --prompt");
      }
    }
    if (timeout != null && !wait) {
      throw new ParameterException(spec.commandLine(), "--timeout needs --wait (without it, run returns once the turn started)");
    }
    if (timeout != null && (timeout.isZero() || timeout.isNegative())) {
      throw new ParameterException(spec.commandLine(), "--timeout must be more than 0");
    }
    if (model != null && what.runbook != null) {
      throw new ParameterException(spec.commandLine(), "--model goes with --prompt; a runbook names its own model");
    }
    if (what.prompt != null && what.prompt.isBlank()) {
      throw new ParameterException(spec.commandLine(), "--prompt must not be empty");
    }
  }

  /** Starts the run on the hub at {@code endpoint}, and with {@code --wait} follows it; returns the exit status. */
  private int run(HubEndpoint endpoint, String projectRef, PrintWriter out) {
    try (RemoteHub client = endpoint.connect()) {
      if (what.prompt != null) {
        long task = client.taskCreate(new BoardApi.TaskCreate(
            projectRef, title(what.prompt), what.prompt, null, null, null, null, null, driver, null, null, null)).id();
        if (!wait) {
          return started(out, client.turnStart(new TurnApi.TurnStart(task, what.prompt, driver, model, null, true)).turn().id(), task);
        }
        // The task's stream is opened first, so the turn's live text deltas are not missed.
        RemoteHub streamClient = endpoint.connect();
        InputStream stream;
        try {
          stream = streamClient.openTaskEvents(task, null);
        } catch (RuntimeException e) {
          streamClient.close();
          throw e;
        }
        long turn;
        try {
          turn = client.turnStart(new TurnApi.TurnStart(task, what.prompt, driver, model, null, true)).turn().id();
        } catch (RuntimeException e) {
          streamClient.close();
          throw e;
        }
        return follow(endpoint, client, task, turn, stream, streamClient, out);
      }
      JsonNode ran = runbook(client, projectRef);
      long task = ran.path("task").path("id").asLong();
      long turn = ran.path("turn").path("id").asLong();
      if (!wait) {
        return started(out, turn, task);
      }
      return follow(endpoint, client, task, turn, null, null, out);
    } catch (HubUnavailableException e) {
      throw endpoint.failure(e);
    }
  }

  private JsonNode runbook(RemoteHub client, String projectRef) {
    Map<String, Object> input = new LinkedHashMap<>();
    input.put("runbook", what.runbook);
    input.put("project", projectRef);
    if (driver != null) {
      input.put("driver", driver);
    }
    input.put("unattended", true);
    try {
      return client.call("runbook_run", input);
    } catch (HubErrorException e) {
      if ("unknown_operation".equals(e.code())) {
        throw new CliFailure(ExitCode.FAILED, "no_runbooks",
            "the hub at " + client.http().address().url() + " has no runbooks (no operation runbook_run); update it, or use --prompt");
      }
      throw e;
    }
  }

  private int started(PrintWriter out, long turn, long task) {
    if (json.enabled) {
      ObjectNode line = Json.mapper().createObjectNode();
      line.put("type", "run.started").put("task", task).put("turn", turn).put("unattended", true);
      out.println(Json.write(line));
    } else {
      out.println("started task " + task + ", turn " + turn + " (unattended)");
    }
    return ExitCode.OK.status();
  }

  private int follow(HubEndpoint endpoint, RemoteHub client, long task, long turn, InputStream stream, RemoteHub streamClient, PrintWriter out) {
    if (!json.enabled) {
      out.println("task " + task + ", turn " + turn + " (unattended)" + (timeout == null ? "" : ", timeout " + Durations.format(timeout)));
      out.flush();
    }
    TurnPrinter printer = new TurnPrinter(out);
    RunFollower follower = new RunFollower(endpoint, client, task, turn, this::notice);
    follower.follow(timeout, stream, streamClient, event -> {
      if (!json.enabled) {
        printer.print(event);
      } else if (!event.path("type").asText().equals("turn.text_delta")) {
        out.println(Json.write(event));
        out.flush();
      }
    });
    printer.endLine();
    TurnApi.TurnOutcomeView outcome = client.turnOutcome(task, turn);
    ExitCode exit = follower.timedOut() && outcome.status() != TurnStatus.COMPLETED && outcome.status() != TurnStatus.FAILED
        ? ExitCode.TIMED_OUT
        : exitOf(outcome.outcome());
    summary(out, outcome, exit, follower.timedOut());
    return exit.status();
  }

  /** The exit status of a run's outcome. */
  static ExitCode exitOf(RunOutcome outcome) {
    return switch (outcome) {
      case DONE -> ExitCode.OK;
      case DENIED, NEEDED_PERSON -> ExitCode.NEEDED_PERSON;
      case FAILED, RUNNING -> ExitCode.FAILED;
    };
  }

  private void summary(PrintWriter out, TurnApi.TurnOutcomeView outcome, ExitCode exit, boolean timedOut) {
    if (json.enabled) {
      ObjectNode line = Json.mapper().createObjectNode();
      line.put("type", "run.summary").put("task", outcome.task()).put("turn", outcome.turn())
          .put("status", outcome.status().wireName())
          .put("outcome", timedOut && exit == ExitCode.TIMED_OUT ? "timed_out" : outcome.outcome().wireName())
          .put("reason", outcome.reason())
          .put("denied_permissions", outcome.deniedPermissions())
          .put("refused_questions", outcome.refusedQuestions())
          .put("timed_out", exit == ExitCode.TIMED_OUT)
          .put("exit", exit.status());
      out.println(Json.write(line));
      return;
    }
    String what = exit == ExitCode.TIMED_OUT ? "timed out (turn " + outcome.status() + ")" : outcome.outcome().wireName();
    out.println("outcome: " + what + (outcome.reason() == null || exit == ExitCode.TIMED_OUT ? "" : " (" + outcome.reason() + ")")
        + "; exit " + exit.status());
  }

  private void notice(String text) {
    PrintWriter err = spec.commandLine().getErr();
    err.println("roundhouse: " + text);
    err.flush();
  }

  /** The task's title: the prompt's first non-blank line, cut to {@value #TITLE_WIDTH} characters. */
  static String title(String prompt) {
    String first = prompt.strip().lines().map(String::strip).filter(line -> !line.isEmpty()).findFirst().orElse("run");
    return Texts.abbreviate(first, TITLE_WIDTH);
  }

  /** A project name from a folder's name: letters, digits, '.', '_' and '-' kept, others made '-'; "project" if none. */
  static String projectName(Path folder) {
    Path file = folder.getFileName();
    String name = (file == null ? "" : file.toString()).replaceAll("[^\\p{L}\\p{N}._-]", "-").replaceAll("^[^\\p{L}\\p{N}]+", "");
    if (name.length() > 64) {
      name = name.substring(0, 64);
    }
    return name.isEmpty() || name.chars().allMatch(Character::isDigit) ? "project" : name;
  }
}
