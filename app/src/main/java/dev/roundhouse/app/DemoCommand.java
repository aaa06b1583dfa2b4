package dev.roundhouse.app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.drivers.script.ScriptDriver;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.api.BoardApi;
import dev.roundhouse.hub.api.TurnApi;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.http.HubServer;
import dev.roundhouse.hubclient.HubUnavailableException;
import dev.roundhouse.hubclient.RemoteHub;
import dev.roundhouse.hubclient.SseReader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code roundhouse demo}: a whole turn without an agent, key or running hub. Starts a throwaway hub in a
 * fresh temporary home on a free loopback port (never the user's home) with the {@code script} driver,
 * creates project {@code demo} and a task, starts a turn playing {@code script:demo}, and prints it as it
 * streams over the HTTP API, as any face would. When the agent asks to run a command, the human answers on
 * the terminal ({@code --yes} allows without asking) and the answer goes back through {@code
 * decision_answer}. Exits 0 when the turn completes; deletes the home unless {@code --keep}.
 *
 * <p>Not thread-safe: picocli fills it and runs it once; the main thread reads the stream and prompts.
 */
@Command(
    name = "demo",
    description = "Watch a scripted agent fix a bug in a throwaway hub, and answer its permission prompt.",
    mixinStandardHelpOptions = true)
final class DemoCommand implements Callable<Integer> {
  static final String PROJECT = "demo";
  static final String SCRIPT = "script:demo";

  private final Context context;

  @Spec CommandSpec spec;

  @Option(names = {"-y", "--yes"}, description = "Allow the agent's tool use without asking (for non-interactive runs).")
  boolean yes;

  @Option(names = "--keep", description = "Keep the demo's home (database, token, project folder) and print where it is.")
  boolean keep;

  DemoCommand(Context context) {
    this.context = context;
  }

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    Path home = Files.createTempDirectory("roundhouse-demo-");
    boolean completed = false;
    try {
      completed = run(home, out);
    } finally {
      if (keep) {
        out.println("kept the demo's home: " + home);
        out.println("  look around with: ROUNDHOUSE_HOME=" + home + " ./roundhouse serve");
      } else {
        ScratchFolders.delete(home);
      }
      out.flush();
    }
    return completed ? ExitCode.OK.status() : ExitCode.FAILED.status();
  }

  /** Runs the demo in {@code home}; true when the turn completed. */
  private boolean run(Path home, PrintWriter out) throws IOException {
    Path folder = Files.createDirectories(home.resolve("demo-project"));
    HubConfig config = HubConfig.forHome(home);
    try (Hub hub = Hub.open(config, Drivers.all(context, config));
        HubServer server = HubServer.start(hub)) {
      HubEndpoint endpoint = new HubEndpoint(server.url(), hub.token(), home, false);
      try (RemoteHub client = endpoint.connect()) {
        out.println("A throwaway hub on " + server.url() + " (home " + home + ") with the script driver.");
        client.projectCreate(new BoardApi.ProjectCreate(PROJECT, folder.toString(), ScriptDriver.ID, null));
        long task = client.taskCreate(
            new BoardApi.TaskCreate(PROJECT, "Fix the cart total", null, null, null, null, null, null, null, null, null, null)).id();
        out.println("Project " + PROJECT + ", task " + task + " \"Fix the cart total\"; starting a turn with " + SCRIPT + ".");
        out.println();
        out.flush();
        try (InputStream stream = client.openTaskEvents(task, null)) {
          long turn = client.turnStart(new TurnApi.TurnStart(task, SCRIPT, ScriptDriver.ID, null, null, null)).turn().id();
          return follow(client, new SseReader(stream), turn, out);
        }
      } catch (HubUnavailableException e) {
        throw endpoint.failure(e);
      }
    }
  }

  /** Prints the turn's events, answering its decisions, until it ends; true when it completed. */
  private boolean follow(RemoteHub client, SseReader reader, long turn, PrintWriter out) throws IOException {
    TurnPrinter printer = new TurnPrinter(out);
    BufferedReader terminal = new BufferedReader(new InputStreamReader(context.stdin(), StandardCharsets.UTF_8));
    DecisionPrompt prompt = new DecisionPrompt(printer, terminal, !isTerminal(context.stdin()), yes);
    while (true) {
      Optional<SseReader.Item> item = reader.next();
      if (item.isEmpty()) {
        throw new CliFailure(ExitCode.FAILED, "stream_ended", "the demo hub ended the task's event stream before the turn ended");
      }
      if (!(item.get() instanceof SseReader.Message message)) {
        continue;
      }
      JsonNode event = parse(message.data());
      JsonNode data = event.path("data");
      if (message.event().equals("decision.opened")) {
        JsonNode decision = data.path("decision");
        Optional<String> answer = prompt.answer(decision);
        if (answer.isPresent()) {
          client.decisionAnswer(new TurnApi.DecisionAnswer(decision.path("id").asLong(), answer.get(), null, null));
        }
        continue;
      }
      printer.print(event);
      if (message.event().equals("turn.ended") && data.path("turn").asLong() == turn) {
        return data.path("status").asText().equals("completed");
      }
    }
  }

  private static JsonNode parse(String json) {
    try {
      return Json.mapper().readTree(json);
    } catch (JsonProcessingException e) {
      throw new CliFailure(ExitCode.FAILED, "bad_event", "the demo hub sent an event that is not JSON: " + e.getOriginalMessage());
    }
  }

  /**
   * True when {@code in} is this process's standard input and that is a terminal (which echoes what is
   * typed). {@code Console.isTerminal()} is Java 22+, so it is looked up reflectively; on 21 a console
   * exists only for a terminal.
   */
  private static boolean isTerminal(InputStream in) {
    java.io.Console console = System.console();
    if (in != System.in || console == null) {
      return false;
    }
    try {
      Method isTerminal = java.io.Console.class.getMethod("isTerminal");
      return (Boolean) isTerminal.invoke(console);
    } catch (ReflectiveOperationException e) {
      return true;
    }
  }

}
