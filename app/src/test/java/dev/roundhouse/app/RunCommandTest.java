package dev.roundhouse.app;

import static dev.roundhouse.app.CliTestSupport.context;
import static dev.roundhouse.app.CliTestSupport.ok;
import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.roundhouse.drivers.script.ScriptDriver;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.testing.Waits;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code roundhouse run}: unattended runs of the script driver against a real hub (over HTTP), each exit
 * status from its outcome, the timeout, and {@code --ephemeral} with no hub running.
 */
@ExtendWith(NoLeakedProcesses.class)
class RunCommandTest {
  private static final String DONE = "{\"steps\": [{\"text\": \"Fixed the build.\"}, {\"usage\": {\"input\": 10, \"output\": 5}}]}";
  private static final String WANTS_PERMISSION =
      "{\"steps\": [{\"tool\": \"Bash\", \"input\": {\"command\": \"rm -rf build\"}, \"ask\": true, \"result\": \"removed\","
          + " \"denied\": [{\"message\": \"I was not allowed to clean the build.\"}]}]}";
  private static final String ASKS = "{\"steps\": [{\"ask_user\": \"Which database?\", \"options\": [\"postgres\", \"sqlite\"]},"
      + " {\"message\": \"Using {{answer}}.\"}]}";
  private static final String FAILS = "{\"steps\": [{\"text\": \"Trying.\"}, {\"fail\": \"the compiler crashed\"}]}";
  private static final String HANGS = "{\"steps\": [{\"message\": \"Waiting for something.\"}, {\"hang\": true}]}";
  private static final Pattern HOME = Pattern.compile("\\(home (\\S+)\\)");

  @TempDir Path userHome;

  private TestHub hub;
  private Context cli;

  @BeforeEach
  void startHub() {
    hub = TestHub.withDrivers(c -> c, List.of(new ScriptDriver()));
    cli = context(hub);
    ok(cli, "project", "add", "web", hub.folder("web"), "--agent", ScriptDriver.ID);
  }

  @AfterEach
  void stopHub() {
    hub.close();
  }

  private CliResult run(String prompt, String... more) {
    List<String> args = new ArrayList<>(List.of("run", "--project", "web", "--prompt", prompt, "--wait"));
    args.addAll(List.of(more));
    return CliResult.run(cli, args.toArray(String[]::new));
  }

  private List<String> transcriptTypes(long task) {
    List<String> types = new ArrayList<>();
    hub.http().op("task_transcript", map("task", task)).get("entries").forEach(e -> types.add(e.get("type").asText()));
    return types;
  }

  @Test
  void aDoneRunStreamsItsTranscriptAndExitsZero() {
    CliResult result = run(DONE);

    assertThat(result.exit()).as("%s", result).isZero();
    assertThat(result.out())
        .contains("task 1, turn 1 (unattended)")
        .contains("you> " + DONE)
        .contains("Fixed the build.")
        .contains("(tokens: 10 in, 5 out")
        .contains("turn 1 completed")
        .endsWith("outcome: done; exit 0\n");
    JsonNode task = hub.http().op("task_get", map("task", 1));
    assertThat(task.get("title").asText()).isEqualTo(RunCommand.title(DONE));
    assertThat(hub.http().op("turn_list", map("task", 1)).at("/turns/0/unattended").asBoolean()).isTrue();
  }

  @Test
  void aPermissionThatWouldAskIsDeniedRecordedAndExitsSix() {
    CliResult result = run(WANTS_PERMISSION);

    assertThat(result.exit()).as("%s", result).isEqualTo(6);
    assertThat(result.out())
        .contains("[Bash] rm -rf build")
        .contains("x denied: no one is watching this unattended run")
        .contains("I was not allowed to clean the build.")
        .contains("outcome: denied (1 permission was denied, first Bash");
    assertThat(transcriptTypes(1)).contains("turn.permission_denied").doesNotContain("turn.permission_requested");
    assertThat(hub.http().op("decision_list", map("include_closed", true)).get("decisions")).isEmpty();
  }

  @Test
  void aQuestionFailsTheRunAndExitsSix() {
    CliResult result = run(ASKS);

    assertThat(result.exit()).as("%s", result).isEqualTo(6);
    assertThat(result.out()).contains("turn 1 failed: unattended run: the agent asked a question no one is there to answer: \"Which database?\"")
        .contains("outcome: needed_person").doesNotContainPattern("(?m)^Using");
    assertThat(transcriptTypes(1)).contains("turn.question_refused");
  }

  @Test
  void aFailingScriptExitsOne() {
    CliResult result = run(FAILS);

    assertThat(result.exit()).as("%s", result).isEqualTo(1);
    assertThat(result.out()).contains("error: the compiler crashed").contains("turn 1 failed: the compiler crashed")
        .endsWith("outcome: failed (the compiler crashed); exit 1\n");
  }

  @Test
  void aTimeoutStopsTheTurnAndExitsSeven() {
    CliResult result = run(HANGS, "--timeout", "1s");

    assertThat(result.exit()).as("%s", result).isEqualTo(7);
    assertThat(result.err()).contains("timed out after 1s; stopping turn 1 of task 1");
    assertThat(result.out()).contains("Waiting for something.").contains("turn 1 stopped").contains("outcome: timed out (turn stopped); exit 7");
    assertThat(hub.http().op("turn_list", map("task", 1)).at("/turns/0/status").asText()).isEqualTo("stopped");
  }

  @Test
  void aStopWhoseAnswerComesAfterTheTurnsEndStillExitsSeven() throws Exception {
    // The turn's end reaches the stream before turn_stop's answer reaches the watchdog: the follower must let the
    // call finish (interrupting it once broke the connection under turn_outcome: exit 3).
    try (SlowAnswerProxy proxy = new SlowAnswerProxy(hub.server().url(), "turn_stop", "turn.ended", Duration.ofMillis(300))) {
      Context viaProxy = new Context(java.util.Map.of("ROUNDHOUSE_HOME", hub.home().toString(),
          "PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"), "ROUNDHOUSE_URL", proxy.url()), hub.home());

      CliResult result = CliResult.run(viaProxy, "run", "--project", "web", "--prompt", HANGS, "--wait", "--timeout", "1s");

      assertThat(proxy.heldUntilSeen()).as("turn_stop's answer was held until turn.ended went by").isTrue();
      assertThat(result.exit()).as("%s", result).isEqualTo(7);
      assertThat(result.err()).contains("timed out after 1s; stopping turn 1 of task 1").doesNotContain("could not stop");
      assertThat(result.out()).contains("outcome: timed out (turn stopped); exit 7");
    }
  }

  @Test
  void jsonPrintsOneEventPerLineThenASummary() {
    CliResult result = run(WANTS_PERMISSION, "--json");

    assertThat(result.exit()).as("%s", result).isEqualTo(6);
    List<JsonNode> lines = result.out().lines().map(RunCommandTest::parse).toList();
    assertThat(lines).extracting(line -> line.path("type").asText())
        .contains("turn.started", "turn.tool_call", "turn.permission_denied", "turn.ended")
        .doesNotContain("turn.text_delta")
        .endsWith("run.summary");
    JsonNode summary = lines.getLast();
    assertThat(summary.get("outcome").asText()).isEqualTo("denied");
    assertThat(summary.get("denied_permissions").asInt()).isEqualTo(1);
    assertThat(summary.get("exit").asInt()).isEqualTo(6);
    assertThat(summary.get("task").asLong()).isEqualTo(1);
  }

  @Test
  void withoutWaitItPrintsTheTaskAndReturnsAtOnce() {
    CliResult result = CliResult.run(cli, "run", "--project", "web", "--prompt", DONE);

    assertThat(result.exit()).as("%s", result).isZero();
    assertThat(result.out()).isEqualTo("started task 1, turn 1 (unattended)\n");
    Waits.until("the turn to end", Duration.ofSeconds(20),
        () -> !hub.http().op("turn_list", map("task", 1)).at("/turns/0/status").asText().equals("running"));
    assertThat(hub.http().op("turn_outcome", map("task", 1)).get("outcome").asText()).isEqualTo("done");
  }

  @Test
  void aRunbookRunsUnattendedAndWaitExitsWithItsOutcome() {
    ok(cli, "runbook", "add", "nightly", "--project", "web", "--prompt", DONE);
    ok(cli, "runbook", "add", "cleanup", "--project", "web", "--prompt", WANTS_PERMISSION);

    CliResult done = CliResult.run(cli, "run", "--project", "web", "--runbook", "nightly", "--wait");

    assertThat(done.exit()).as("%s", done).isZero();
    assertThat(done.out())
        .contains("task 1, turn 1 (unattended)")
        .contains("Fixed the build.")
        .contains("turn 1 completed")
        .endsWith("outcome: done; exit 0\n");
    assertThat(hub.http().op("turn_list", map("task", 1)).at("/turns/0/unattended").asBoolean()).isTrue();
    CliResult denied = CliResult.run(cli, "run", "--project", "web", "--runbook", "cleanup", "--wait", "--json");
    assertThat(denied.exit()).as("%s", denied).isEqualTo(6);
    assertThat(parse(denied.out().lines().toList().getLast()).get("outcome").asText()).isEqualTo("denied");
    CliResult unknown = CliResult.run(cli, "run", "--project", "web", "--runbook", "weekly", "--wait");
    assertThat(unknown.exit()).isEqualTo(1);
    assertThat(unknown.err()).startsWith("roundhouse: no runbook 'weekly' in project web");
  }

  @Test
  void aRunbookOnAHubWithoutRunbooksSaysSo() throws IOException {
    HttpServer old = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    old.createContext("/api/ops/", exchange -> {
      byte[] body = ("{\"error\":{\"status\":404,\"code\":\"unknown_operation\",\"message\":\"no operation named '"
          + exchange.getRequestURI().getPath().substring("/api/ops/".length()) + "'\"}}").getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(404, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    old.start();
    try {
      String url = "http://127.0.0.1:" + old.getAddress().getPort();
      CliResult result = CliResult.run(context(userHome, userHome), "run", "--project", "web", "--runbook", "nightly", "--wait",
          "--url", url, "--token", "t");

      assertThat(result.exit()).as("%s", result).isEqualTo(1);
      assertThat(result.err()).isEqualTo("roundhouse: the hub at " + url
          + " has no runbooks (no operation runbook_run); update it, or use --prompt\n");
    } finally {
      old.stop(0);
    }
  }

  @Test
  void usageErrorsExitTwoBeforeAnyHubIsContacted() {
    Context noHub = context(userHome, userHome);
    assertThat(CliResult.run(noHub, "run", "--project", "web").exit()).isEqualTo(2);
    assertThat(CliResult.run(noHub, "run", "--project", "web", "--prompt", "x", "--runbook", "y").exit()).isEqualTo(2);
    CliResult timeout = CliResult.run(noHub, "run", "--project", "web", "--prompt", "x", "--timeout", "soon", "--wait");
    assertThat(timeout.exit()).isEqualTo(2);
    assertThat(timeout.err()).contains("'soon' is not a duration");
    assertThat(CliResult.run(noHub, "run", "--project", "web", "--prompt", "x", "--timeout", "5m").err()).contains("--timeout needs --wait");
    assertThat(CliResult.run(noHub, "run", "--project", ".", "--prompt", "x", "--ephemeral", "--url", "http://x").exit()).isEqualTo(2);
    assertThat(CliResult.run(noHub, "run", "--project", "web", "--prompt", "x").exit()).as("no hub").isEqualTo(3);
  }

  @Test
  void anExplicitUrlAndTokenReachAHubOfAnotherHome() {
    Context elsewhere = context(userHome, userHome);
    CliResult result = CliResult.run(elsewhere, "run", "--project", "web", "--prompt", DONE, "--wait",
        "--url", hub.server().url(), "--token", hub.hub().token());

    assertThat(result.exit()).as("%s", result).isZero();
    CliResult badToken = CliResult.run(elsewhere, "run", "--project", "web", "--prompt", DONE, "--url", hub.server().url(), "--token", "wrong");
    assertThat(badToken.exit()).as("%s", badToken).isEqualTo(1);
  }

  @Test
  void ephemeralRunsInAThrowawayHomeAndLeavesNothingBehind() throws Exception {
    Path project = Files.createDirectories(userHome.resolve("checkout"));
    Path home = Files.createDirectories(userHome.resolve("home"));

    CliResult result = CliResult.run(context(home, project),
        "run", "--ephemeral", "--project", ".", "--driver", ScriptDriver.ID, "--prompt", WANTS_PERMISSION);

    assertThat(result.exit()).as("%s", result).isEqualTo(6);
    assertThat(result.out()).contains("x denied: no one is watching this unattended run");
    assertThat(result.err()).contains("runs project checkout at " + project);
    Path throwaway = throwawayHome(result);
    assertThat(throwaway).doesNotExist();
    assertThat(throwaway.startsWith(home)).isFalse();
    try (Stream<Path> left = Files.list(home)) {
      assertThat(left).as("ROUNDHOUSE_HOME is never touched").isEmpty();
    }
  }

  @Test
  void ephemeralInARealProcessExitsWithTheOutcomeAndLeavesNoProcessOrHome() throws Exception {
    Path project = Files.createDirectories(userHome.resolve("checkout"));

    CliResult result = RoundhouseProcess.run(userHome, Duration.ofSeconds(60),
        "run", "--ephemeral", "--project", project.toString(), "--driver", ScriptDriver.ID, "--prompt", ASKS);

    assertThat(result.exit()).as("%s", result).isEqualTo(6);
    assertThat(result.out()).contains("outcome: needed_person");
    assertThat(throwawayHome(result)).doesNotExist();
    // NoLeakedProcesses checks that no child of this JVM (the run, an agent) is left.
  }

  private static Path throwawayHome(CliResult result) {
    Matcher home = HOME.matcher(result.err());
    assertThat(home.find()).as("the run names its throwaway home: %s", result).isTrue();
    return Path.of(home.group(1));
  }

  private static JsonNode parse(String line) {
    try {
      return Json.mapper().readTree(line);
    } catch (Exception e) {
      throw new AssertionError("not a JSON line: " + line, e);
    }
  }
}
