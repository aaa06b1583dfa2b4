package dev.roundhouse.drivers.codex;

import static dev.roundhouse.drivers.codex.FakeResponsesServer.error;
import static dev.roundhouse.drivers.codex.FakeResponsesServer.patch;
import static dev.roundhouse.drivers.codex.FakeResponsesServer.shell;
import static dev.roundhouse.drivers.codex.FakeResponsesServer.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.drivers.process.AgentCommand;
import dev.roundhouse.drivers.process.ChildProcesses;
import dev.roundhouse.drivers.testing.BackgroundTurn;
import dev.roundhouse.drivers.testing.LiveAgentEndpoint;
import dev.roundhouse.drivers.testing.RecordingTurnContext;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.spi.PermissionRequest;
import dev.roundhouse.hub.spi.PermissionVerdict;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.spi.TurnRequest;
import dev.roundhouse.hub.spi.TurnStoppedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The driver against the real {@code codex app-server} 0.171.0, its model being a fake Responses server on 127.0.0.1. */
class CodexDriverTest {
  @TempDir Path root;
  FakeResponsesServer server;
  CodexHome world;
  final List<Long> processes = new CopyOnWriteArrayList<>();

  @BeforeEach
  void setUp() {
    server = FakeResponsesServer.start();
    world = new CodexHome(root, server);
  }

  @AfterEach
  void tearDown() throws InterruptedException {
    server.close();
    ChildProcesses.assertNoneLeft(Duration.ofSeconds(10));
  }

  private CodexDriver driver(CodexSettings settings) {
    return new CodexDriver(settings, new CodexDriver.Tuning(
        dev.roundhouse.drivers.process.ChildEnvironment::fromHub, PriceTable.DEFAULT, new CodexDriver.Observer() {
          @Override
          public void started(AppServer app) {
            processes.add(app.pid());
          }
        }));
  }

  private CodexDriver driver() {
    return driver(world.settings());
  }

  private TurnRequest request(String message) {
    return request(message, null, List.of());
  }

  private TurnRequest request(String message, String resume, List<String> summaries) {
    return new TurnRequest(1, 7, "web", world.project(), message, "Task: say hello", summaries, resume, null, null, false);
  }

  @Test
  void aPlainAnswerStreamsAndEndsWithAResult() throws Exception {
    server.enqueue(text("Hello ", "from ", "the fake."));
    RecordingTurnContext context = new RecordingTurnContext(1);

    driver().run(request("say hi"), context);

    assertThat(context.shapeWithoutDeltas()).isEqualTo("turn.session turn.message turn.usage turn.result");
    assertThat(context.streamedText()).isEqualTo("Hello from the fake.");
    TurnEvent.SessionStarted session = context.events(TurnEvent.SessionStarted.class).get(0);
    assertThat(session.sessionId()).matches("[0-9a-f-]{36}");
    assertThat(session.model()).isEqualTo(CodexHome.MODEL);
    assertThat(context.events(TurnEvent.AssistantMessage.class).get(0).text()).isEqualTo("Hello from the fake.");
    TurnEvent.Usage usage = context.events(TurnEvent.Usage.class).get(0);
    assertThat(usage.inputTokens()).isEqualTo(FakeResponsesServer.INPUT_TOKENS);
    assertThat(usage.outputTokens()).isEqualTo(FakeResponsesServer.OUTPUT_TOKENS);
    assertThat(usage.costEstimated()).isTrue();
    // gpt-5.5 is priced as gpt-5: 1000 input at 1.25/M, 200 cached at 0.125/M, 30 output at 10/M.
    assertThat(usage.costUsd()).isCloseTo((1000 * 1.25 + 200 * 0.125 + 30 * 10.0) / 1_000_000, org.assertj.core.data.Offset.offset(1e-12));
    assertThat(context.events(TurnEvent.Result.class).get(0)).isEqualTo(new TurnEvent.Result("end_turn", "Hello from the fake."));
    // The task's context went in as developer instructions.
    assertThat(server.request(0).text()).contains("Task: say hello");
  }

  @Test
  void reasoningIsAThoughtUpdatePlanIsThePlanAndUsageSaysHowFullTheContextIs() throws Exception {
    server.enqueue(
        FakeResponsesServer.reasonThenPlan("Two steps: tests, then shipping.", "call_p",
            "{\"explanation\": \"start with tests\", \"plan\": [{\"step\": \"Write tests\", \"status\": \"in_progress\"}, {\"step\": \"Ship\", \"status\": \"pending\"}]}"),
        text("Planned."));
    // Codex 0.171.0 offers its plan tool (update_plan) only when the user's config turns it on.
    Files.writeString(world.codexHome().resolve("config.toml"), "\n[tools.update_plan]\nenabled = true\n", java.nio.file.StandardOpenOption.APPEND);
    RecordingTurnContext context = new RecordingTurnContext(1);

    driver().run(request("make a plan"), context);

    assertThat(context.events(TurnEvent.Thought.class)).extracting(TurnEvent.Thought::text).containsExactly("Two steps: tests, then shipping.");
    assertThat(context.events(TurnEvent.Plan.class)).containsExactly(new TurnEvent.Plan(List.of(
        new TurnEvent.PlanEntry("Write tests", "in_progress", null), new TurnEvent.PlanEntry("Ship", "pending", null))));
    assertThat(context.permissionRequests()).as("a plan needs no permission").isEmpty();
    assertThat(context.shapeWithoutDeltas()).startsWith("turn.session turn.thought").contains("turn.plan").endsWith("turn.message turn.usage turn.result");
    TurnEvent.Usage usage = context.events(TurnEvent.Usage.class).get(1);
    assertThat(usage.contextTokens()).as("the last call's input").isEqualTo(FakeResponsesServer.INPUT_TOKENS);
    assertThat(usage.contextWindow()).as("Codex's modelContextWindow for the model").isPositive();
    assertThat(server.request(1).text()).as("the plan tool's output went back to the model").contains("call_p");
  }

  @Test
  void anApprovedCommandRunsAndItsOutputIsReported() throws Exception {
    server.enqueue(shell("call_1", "echo made-by-codex > made.txt; cat made.txt"), text("Done."));
    RecordingTurnContext context = new RecordingTurnContext(1).answer(PermissionVerdict.allow("allowed by test"));

    driver().run(request("make a file"), context);

    assertThat(context.shapeWithoutDeltas()).isEqualTo("turn.session turn.tool_call turn.tool_result turn.usage turn.message turn.usage turn.result");
    PermissionRequest asked = context.permissionRequests().get(0);
    assertThat(asked.tool()).isEqualTo("shell");
    assertThat(asked.command()).isEqualTo("echo made-by-codex > made.txt; cat made.txt");
    assertThat(asked.callId()).isEqualTo("call_1");
    TurnEvent.ToolCall call = context.events(TurnEvent.ToolCall.class).get(0);
    assertThat(call.callId()).isEqualTo("call_1");
    assertThat(call.input().path("command").asText()).isEqualTo("echo made-by-codex > made.txt; cat made.txt");
    TurnEvent.ToolResult result = context.events(TurnEvent.ToolResult.class).get(0);
    assertThat(result.isError()).isFalse();
    assertThat(result.output()).contains("made-by-codex");
    assertThat(Files.readString(world.project().resolve("made.txt"))).isEqualTo("made-by-codex\n");
    // The command's output went back to the model.
    assertThat(server.request(1).text()).contains("made-by-codex");
  }

  @Test
  void aDeniedCommandDoesNotRunAndTheModelIsTold() throws Exception {
    server.enqueue(shell("call_1", "touch denied.txt"), text("Understood."));
    RecordingTurnContext context = new RecordingTurnContext(1).answer(PermissionVerdict.deny("denied by test"));

    driver().run(request("make a file"), context);

    assertThat(context.shapeWithoutDeltas()).isEqualTo(
        "turn.session turn.tool_call turn.permission_denied turn.tool_result turn.usage turn.message turn.usage turn.result");
    assertThat(context.events(TurnEvent.ToolResult.class).get(0)).isEqualTo(
        new TurnEvent.ToolResult("call_1", "declined: the command did not run", true));
    assertThat(world.project().resolve("denied.txt")).doesNotExist();
    assertThat(server.request(1).text()).contains("rejected by user");
  }

  @Test
  void anApprovedPatchWritesTheFile() throws Exception {
    server.enqueue(patch("call_p", "*** Begin Patch\n*** Add File: hello.txt\n+hello from a patch\n*** End Patch\n"), text("Patched."));
    RecordingTurnContext context = new RecordingTurnContext(1).answer(PermissionVerdict.allow("allowed by test"));

    driver().run(request("write hello.txt"), context);

    PermissionRequest asked = context.permissionRequests().get(0);
    assertThat(asked.tool()).isEqualTo("apply_patch");
    assertThat(asked.description()).isEqualTo("Edit files: add " + world.project().toRealPath().resolve("hello.txt"));
    assertThat(asked.input().at("/changes/0/diff").asText()).isEqualTo("hello from a patch\n");
    assertThat(Files.readString(world.project().resolve("hello.txt"))).isEqualTo("hello from a patch\n");
    TurnEvent.ToolResult result = context.events(TurnEvent.ToolResult.class).get(0);
    assertThat(result.isError()).isFalse();
    assertThat(result.output()).startsWith("applied: add ");
  }

  @Test
  void stopMidStreamInterruptsTheTurnAndLeavesNoProcess() throws Exception {
    server.enqueue(FakeResponsesServer.stallAfter("Thinking about "));
    RecordingTurnContext context = new RecordingTurnContext(1);
    BackgroundTurn turn = BackgroundTurn.start(driver(), request("think"), context);

    context.await(TurnEvent.TextDelta.class, Duration.ofSeconds(30));
    long started = System.nanoTime();
    context.stop();

    assertThat(turn.outcome(Duration.ofSeconds(15))).isInstanceOf(TurnStoppedException.class);
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
    assertThat(ProcessHandle.of(processes.get(0)).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    assertThat(context.shapeWithoutDeltas()).doesNotContain("turn.result");
  }

  @Test
  void aLaterTurnResumesTheStoredThread() throws Exception {
    server.enqueue(text("First answer."), text("Second answer."));
    RecordingTurnContext first = new RecordingTurnContext(1);
    driver().run(request("remember the word teapot"), first);
    String thread = first.events(TurnEvent.SessionStarted.class).get(0).sessionId();

    RecordingTurnContext second = new RecordingTurnContext(2);
    driver().run(request("what was the word?", thread, List.of("summary that must not be used")), second);

    assertThat(second.events(TurnEvent.SessionStarted.class).get(0).sessionId()).isEqualTo(thread);
    String history = server.request(1).json().path("input").toString();
    assertThat(history).contains("remember the word teapot").contains("First answer.").contains("what was the word?");
    assertThat(history).doesNotContain("summary that must not be used");
    assertThat(processes).hasSize(2);
  }

  @Test
  void aThreadThatIsGoneStartsFreshSeededWithTheSummaries() throws Exception {
    server.enqueue(text("Fresh start."));
    RecordingTurnContext context = new RecordingTurnContext(1);

    driver().run(request("carry on", "01a22cd3-0000-7000-8000-000000000000", List.of("Earlier we renamed Foo to Bar.")), context);

    String thread = context.events(TurnEvent.SessionStarted.class).get(0).sessionId();
    assertThat(thread).isNotEqualTo("01a22cd3-0000-7000-8000-000000000000");
    assertThat(server.request(0).json().path("input").toString()).contains("Earlier we renamed Foo to Bar.").contains("carry on");
    assertThat(context.events(TurnEvent.Result.class)).hasSize(1);
  }

  @Test
  void anApiErrorFailsTheTurnNamingTheEndpoint() {
    server.enqueue(error(400, "The model 'gpt-5.5' does not exist for this key"));
    RecordingTurnContext context = new RecordingTurnContext(1);

    assertThatThrownBy(() -> driver().run(request("hi"), context))
        .isInstanceOf(RoundhouseException.class)
        .hasMessage("the model endpoint " + server.baseUrl() + " (codex provider 'fake') failed: The model 'gpt-5.5' does not exist for this key");
    assertThat(context.shapeWithoutDeltas()).isEqualTo("turn.session");
  }

  /**
   * Codex 0.171.0 passes a 503 on with its status and body, but turns a 500 into "We're currently experiencing
   * high demand" (kind {@code internalServerError}), dropping both: the turn's error still names the endpoint
   * and the status.
   */
  @Test
  void aServerErrorFailsTheTurnNamingTheEndpointAndTheHttpStatus() throws Exception {
    // Codex retries a 5xx (5 times by default, with backoff) before it gives up; no retries keep the test short.
    Path config = world.codexHome().resolve("config.toml");
    Files.writeString(config, Files.readString(config).replace("wire_api = \"responses\"", "wire_api = \"responses\"\nrequest_max_retries = 0\nstream_max_retries = 0"));
    String endpoint = "the model endpoint " + server.baseUrl() + " (codex provider 'fake') failed with HTTP ";

    server.enqueue(error(500, "upstream model pool is draining"));
    assertThatThrownBy(() -> driver().run(request("hi"), new RecordingTurnContext(1)))
        .isInstanceOf(RoundhouseException.class)
        .hasMessageStartingWith(endpoint + "500 (internalServerError): ");

    server.enqueue(error(503, "upstream model pool is draining"));
    RecordingTurnContext context = new RecordingTurnContext(2);
    assertThatThrownBy(() -> driver().run(request("hi"), context))
        .isInstanceOf(RoundhouseException.class)
        .hasMessageStartingWith(endpoint + "503")
        .hasMessageEndingWith(": upstream model pool is draining");
    assertThat(context.shapeWithoutDeltas()).isEqualTo("turn.session");
  }

  @Test
  void aHangingEndpointEndsTheTurnAtTheDriversDeadline() {
    server.enqueue(FakeResponsesServer.hang());
    RecordingTurnContext context = new RecordingTurnContext(1);
    long started = System.nanoTime();

    assertThatThrownBy(() -> driver(world.settings().withEndpointDeadline(Duration.ofSeconds(3))).run(request("hi"), context))
        .isInstanceOf(RoundhouseException.class)
        .hasMessageStartingWith("the model endpoint " + server.baseUrl() + " (codex provider 'fake') gave no answer within 3 s");
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    assertThat(took).isGreaterThanOrEqualTo(Duration.ofSeconds(3)).isLessThan(Duration.ofSeconds(15));
    assertThat(context.events(TurnEvent.EndpointSilent.class)).as("notices while the endpoint hung").isNotEmpty()
        .allSatisfy(notice -> assertThat(notice.text()).startsWith("codex has had no answer from its model for "));
  }

  @Test
  void anEndpointThatKeepsRefusingEndsAtTheDeadlineWithCodexsLastReason() {
    server.otherwise(error(401, "Incorrect API key provided"));
    RecordingTurnContext context = new RecordingTurnContext(1);

    assertThatThrownBy(() -> driver(world.settings().withEndpointDeadline(Duration.ofSeconds(2))).run(request("hi"), context))
        .isInstanceOf(RoundhouseException.class)
        .hasMessageStartingWith("the model endpoint " + server.baseUrl() + " (codex provider 'fake') gave no answer within 2 s; codex last said: Reconnecting...")
        .hasMessageContaining("401 Unauthorized: Incorrect API key provided");
    assertThat(context.events(TurnEvent.EndpointSilent.class)).extracting(TurnEvent.EndpointSilent::text)
        .anySatisfy(text -> assertThat(text).contains("(it last said: Reconnecting..."));
  }

  @Test
  void aLingeringSessionAnswersTheNextMessageOnTheSameThreadAndProcess() throws Exception {
    server.enqueue(text("One."), text("Two."));
    RecordingTurnContext context = new RecordingTurnContext(1).thenMessages("and again");

    driver().run(request("once"), context);

    assertThat(context.shapeWithoutDeltas()).isEqualTo("turn.session turn.message turn.usage turn.result turn.message turn.usage turn.result");
    assertThat(context.events(TurnEvent.Result.class)).extracting(TurnEvent.Result::text).containsExactly("One.", "Two.");
    assertThat(processes).hasSize(1);
    assertThat(server.request(1).json().path("input").toString()).contains("once").contains("One.").contains("and again");
  }

  @Test
  void aMissingProgramEndsTheTurnWithAnErrorNamingIt() {
    CodexSettings settings = world.settings().withCommand(new AgentCommand(root.resolve("no-such-codex").toString(), List.of(), world.command().env()));

    assertThatThrownBy(() -> driver(settings).run(request("hi"), new RecordingTurnContext(1)))
        .isInstanceOf(RoundhouseException.class)
        .hasMessageContaining("no-such-codex is not an executable file");
  }

  @Test
  void theHubsMcpServerIsConfiguredForTheThreadWithTheTokenOutOfArgv() throws Exception {
    try (LiveAgentEndpoint hub = LiveAgentEndpoint.open()) {
      String token = hub.endpoint().bearerToken();
      server.enqueue(FakeResponsesServer.mcpCall("call_m", "roundhouse", "suggest_task", "{\"project\":\"web\",\"title\":\"Write the docs\"}"), text("Suggested."));
      RecordingTurnContext context = new RecordingTurnContext(1).endpoint(hub.endpoint());
      List<String> commandLines = new CopyOnWriteArrayList<>();
      CodexDriver driver = new CodexDriver(world.settings(), new CodexDriver.Tuning(
          dev.roundhouse.drivers.process.ChildEnvironment::fromHub, PriceTable.DEFAULT, new CodexDriver.Observer() {
            @Override
            public void started(AppServer app) {
              ProcessHandle.of(app.pid()).ifPresent(p -> {
                commandLines.add(p.info().commandLine().orElse(""));
                p.descendants().forEach(child -> commandLines.add(child.info().commandLine().orElse("")));
              });
            }
          }));

      driver.run(request("suggest a task"), context);

      // The call reached the hub with the task token: the suggestion is the task's agent's.
      JsonNode suggestion = hub.taskTitled("Write the docs");
      assertThat(suggestion.path("suggested").asBoolean()).isTrue();
      assertThat(suggestion.path("created_by").asText()).isEqualTo("agent:" + hub.task());
      TurnEvent.ToolCall call = context.events(TurnEvent.ToolCall.class).get(0);
      assertThat(call.tool()).isEqualTo("suggest_task");
      assertThat(call.input()).isEqualTo(dev.roundhouse.hub.core.Json.mapper().readTree("{\"project\":\"web\",\"title\":\"Write the docs\"}"));
      TurnEvent.ToolResult result = context.events(TurnEvent.ToolResult.class).get(0);
      assertThat(result.callId()).isEqualTo("call_m");
      assertThat(result.isError()).isFalse();
      assertThat(result.output()).contains("suggest_task filed task " + suggestion.path("id").asLong() + " 'Write the docs'");
      // The hub's tools need no approval from Codex: the hub applies its actor rules itself.
      assertThat(context.permissionRequests()).isEmpty();
      assertThat(commandLines).isNotEmpty().noneMatch(line -> line.contains(token));
      assertThat(context.events().toString()).doesNotContain(token);
    }
  }

  @Test
  void authStatusAndCapabilitiesComeFromTheCli() {
    CodexDriver driver = driver();

    assertThat(driver.authStatus()).isEqualTo(dev.roundhouse.hub.spi.AuthStatus.ok(
        "codex 0.171.0, the model endpoint " + server.baseUrl() + " (codex provider 'fake'), key from FAKE_API_KEY"));
    var capabilities = driver.capabilities();
    assertThat(capabilities.displayName()).isEqualTo("Codex");
    assertThat(capabilities.models()).first().isEqualTo(CodexHome.MODEL);
    assertThat(capabilities.models()).hasSizeGreaterThan(1);
    assertThat(capabilities.permissionModes()).containsExactly("untrusted", "on-request", "never");
    assertThat(capabilities.supportsResume()).isTrue();
    assertThat(capabilities.supportsLinger()).isTrue();
  }

  @Test
  void authStatusSaysWhenTheProvidersKeyIsMissing() {
    AgentCommand keyless = new AgentCommand(world.command().program(), List.of(),
        world.command().env().entrySet().stream().filter(e -> !e.getKey().equals(CodexHome.KEY_VARIABLE))
            .collect(java.util.stream.Collectors.toMap(java.util.Map.Entry::getKey, java.util.Map.Entry::getValue)));

    assertThat(driver(world.settings().withCommand(keyless)).authStatus()).isEqualTo(dev.roundhouse.hub.spi.AuthStatus.problem(
        "codex 0.171.0 is installed, but its model provider 'fake' reads its key from FAKE_API_KEY, which is not set: set it in the codex command's env"));
  }
}
