package dev.roundhouse.drivers.claude;

import static dev.roundhouse.drivers.claude.FakeAnthropicServer.answer;
import static dev.roundhouse.drivers.claude.FakeAnthropicServer.failure;
import static dev.roundhouse.drivers.claude.FakeAnthropicServer.systemPrompt;
import static dev.roundhouse.drivers.claude.FakeAnthropicServer.text;
import static dev.roundhouse.drivers.claude.FakeAnthropicServer.thinking;
import static dev.roundhouse.drivers.claude.FakeAnthropicServer.toolUse;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.drivers.process.AgentCommand;
import dev.roundhouse.drivers.process.ChildProcesses;
import dev.roundhouse.drivers.testing.BackgroundTurn;
import dev.roundhouse.drivers.testing.LiveAgentEndpoint;
import dev.roundhouse.drivers.testing.RecordedRequest;
import dev.roundhouse.drivers.testing.RecordingTurnContext;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.spi.PermissionVerdict;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.spi.TurnRequest;
import dev.roundhouse.hub.spi.TurnStoppedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The driver against the real, pinned {@code claude} CLI and a fake Anthropic API on 127.0.0.1. */
class ClaudeDriverTest {
  @TempDir Path home;
  @TempDir Path project;
  final FakeAnthropicServer server = FakeAnthropicServer.start();

  @AfterEach
  void tearDown() throws InterruptedException {
    server.close();
    ChildProcesses.assertNoneLeft(Duration.ofSeconds(15));
    assertThat(server.unexpected()).as("requests the fake API does not serve").isEmpty();
  }

  private ClaudeDriver driver() {
    return driver(OfflineClaude.settings(server, home, Duration.ofSeconds(8)));
  }

  private static ClaudeDriver driver(ClaudeSettings settings) {
    return new ClaudeDriver(settings, OfflineClaude.hubEnvironment(), ClaudeSession.EmitObserver.NONE);
  }

  private TurnRequest request(String message) {
    return request(message, null, List.of(), null);
  }

  private TurnRequest request(String message, String resume, List<String> summaries, String permissionMode) {
    return new TurnRequest(1, 7, "web", project, message, "Project web: a test project.\n\nTask #7: Say hello", summaries, resume, null, permissionMode, false);
  }

  /** Runs the driver on a thread of its own, which a stop interrupts. */
  private static BackgroundTurn start(ClaudeDriver driver, TurnRequest request, RecordingTurnContext context) {
    return BackgroundTurn.startInterruptible(driver, request, context);
  }

  private static Throwable finish(BackgroundTurn turn) throws InterruptedException {
    return turn.outcome(Duration.ofSeconds(60));
  }

  @Test
  void aPlainAnswerStreamsDeltasThenTheMessageUsageAndResult() throws Exception {
    server.enqueue(answer("Hello ", "from ", "the fake model."));
    RecordingTurnContext context = new RecordingTurnContext(1);

    assertThat(finish(start(driver(), request("say hello"), context))).isNull();

    assertThat(context.shape()).isEqualTo("turn.session turn.message turn.usage turn.result");
    assertThat(context.streamedText()).isEqualTo("Hello from the fake model.");
    assertThat(context.events(TurnEvent.TextDelta.class)).hasSize(3);
    TurnEvent.SessionStarted session = context.events(TurnEvent.SessionStarted.class).get(0);
    assertThat(UUID.fromString(session.sessionId())).isNotNull();
    assertThat(session.model()).isNotBlank();
    assertThat(context.events(TurnEvent.AssistantMessage.class).get(0).text()).isEqualTo("Hello from the fake model.");
    TurnEvent.Usage usage = context.events(TurnEvent.Usage.class).get(0);
    assertThat(usage.inputTokens()).isEqualTo(100);
    assertThat(usage.outputTokens()).isEqualTo(20);
    assertThat(usage.costUsd()).isPositive();
    assertThat(usage.costEstimated()).isFalse();
    TurnEvent.Result result = context.events(TurnEvent.Result.class).get(0);
    assertThat(result.stopReason()).isEqualTo("end_turn");
    assertThat(result.text()).isEqualTo("Hello from the fake model.");
    // The task's context reached the system prompt; the API saw the user's message and a system entry.
    RecordedRequest sent = server.request(0);
    assertThat(systemPrompt(sent)).contains("Project web: a test project.").contains("Task #7: Say hello");
    assertThat(sent.text()).contains("say hello");
    assertThat(sent.header("x-api-key")).isEqualTo("sk-test");
  }

  @Test
  void thinkingIsAThoughtTheTaskToolsAPlanAndUsageSaysHowFullTheContextIs() throws Exception {
    server.enqueue(
        answer(thinking("Two steps: tests, then shipping."),
            toolUse("toolu_c1", "TaskCreate", "{\"subject\": \"Write tests\", \"description\": \"the tests\", \"activeForm\": \"Writing tests\"}"),
            toolUse("toolu_c2", "TaskCreate", "{\"subject\": \"Ship\", \"description\": \"ship it\", \"activeForm\": \"Shipping\"}")),
        answer(toolUse("toolu_u1", "TaskUpdate", "{\"taskId\": \"1\", \"status\": \"in_progress\"}")),
        answer(thinking("The plan is in place."), text("Planned.")));
    // Claude Code 2.1.332 offers its to-do tools (TaskCreate, TaskUpdate, ...) only with this switch.
    ClaudeSettings settings = OfflineClaude.settings(server, home, Duration.ofSeconds(8));
    java.util.Map<String, String> env = new java.util.HashMap<>(settings.command().env());
    env.put("CLAUDE_CODE_ENABLE_TODO_TOOLS", "1");
    RecordingTurnContext context = new RecordingTurnContext(1);

    assertThat(finish(start(driver(settings.withCommand(new AgentCommand(settings.command().program(), List.of(), env))),
        request("make a plan"), context))).isNull();

    assertThat(context.permissionRequests()).as("the to-do tools need no permission").isEmpty();
    assertThat(context.events(TurnEvent.Thought.class)).extracting(TurnEvent.Thought::text)
        .containsExactly("Two steps: tests, then shipping.", "The plan is in place.");
    assertThat(context.events(TurnEvent.ToolCall.class)).extracting(TurnEvent.ToolCall::tool).containsExactly("TaskCreate", "TaskCreate", "TaskUpdate");
    assertThat(context.events(TurnEvent.Plan.class)).last().isEqualTo(new TurnEvent.Plan(List.of(
        new TurnEvent.PlanEntry("Write tests", "in_progress", null), new TurnEvent.PlanEntry("Ship", "pending", null))));
    assertThat(context.shape()).startsWith("turn.session turn.thought turn.tool_call").endsWith("turn.thought turn.message turn.usage turn.result");
    TurnEvent.Usage usage = context.events(TurnEvent.Usage.class).get(0);
    assertThat(usage.contextTokens()).as("the last request's input, as the fake API reports it").isEqualTo(100);
    assertThat(usage.contextWindow()).as("modelUsage.<model>.contextWindow").isPositive();
  }

  @Test
  void anApprovedToolCallRunsAndItsResultIsReported() throws Exception {
    server.enqueue(
        answer(toolUse("toolu_write_1", "Write", "{\"file_path\": \"" + project.resolve("hello.txt") + "\", \"content\": \"hello\\n\"}")),
        answer("I wrote hello.txt."));
    RecordingTurnContext context = new RecordingTurnContext(1).answer(PermissionVerdict.allow("allowed by the user"));

    assertThat(finish(start(driver(), request("write hello.txt"), context))).isNull();

    assertThat(Files.readString(project.resolve("hello.txt"))).isEqualTo("hello\n");
    assertThat(context.permissionRequests()).singleElement().satisfies(asked -> {
      assertThat(asked.tool()).isEqualTo("Write");
      assertThat(asked.callId()).isEqualTo("toolu_write_1");
      assertThat(asked.description()).isEqualTo("Write " + project.resolve("hello.txt"));
      assertThat(asked.input().path("content").asText()).isEqualTo("hello\n");
    });
    assertThat(context.shape()).isEqualTo("turn.session turn.tool_call turn.tool_result turn.message turn.usage turn.result");
    TurnEvent.ToolCall call = context.events(TurnEvent.ToolCall.class).get(0);
    assertThat(call.callId()).isEqualTo("toolu_write_1");
    assertThat(call.tool()).isEqualTo("Write");
    TurnEvent.ToolResult result = context.events(TurnEvent.ToolResult.class).get(0);
    assertThat(result.callId()).isEqualTo("toolu_write_1");
    assertThat(result.isError()).isFalse();
    assertThat(result.output()).contains("File created successfully");
  }

  @Test
  void aDeniedToolCallDoesNotRunAndTheModelIsToldWhy() throws Exception {
    server.enqueue(
        answer(toolUse("toolu_bash_1", "Bash", "{\"command\": \"touch made.txt\", \"description\": \"make a file\"}")),
        answer("Understood, I will not."));
    RecordingTurnContext context = new RecordingTurnContext(1).answer(PermissionVerdict.deny("denied by user: not now"));

    assertThat(finish(start(driver(), request("make a file"), context))).isNull();

    assertThat(project.resolve("made.txt")).doesNotExist();
    assertThat(context.permissionRequests()).singleElement().satisfies(asked -> {
      assertThat(asked.command()).isEqualTo("touch made.txt");
      assertThat(asked.description()).isEqualTo("Run: touch made.txt");
    });
    assertThat(context.shape()).isEqualTo("turn.session turn.tool_call turn.permission_denied turn.tool_result turn.message turn.usage turn.result");
    TurnEvent.ToolResult result = context.events(TurnEvent.ToolResult.class).get(0);
    assertThat(result.isError()).isTrue();
    assertThat(result.output()).isEqualTo("Roundhouse denied Bash: denied by user: not now");
    // The model was told in the next request.
    assertThat(server.request(1).text()).contains("Roundhouse denied Bash: denied by user: not now");
  }

  @Test
  void aRefusalTheCliMakesItselfIsAPermissionDeniedEvent() throws Exception {
    server.enqueue(
        answer(toolUse("toolu_bash_2", "Bash", "{\"command\": \"touch made.txt\", \"description\": \"make a file\"}")),
        answer("Fine."));
    RecordingTurnContext context = new RecordingTurnContext(1);

    assertThat(finish(start(driver(), request("make a file", null, List.of(), "dontAsk"), context))).isNull();

    assertThat(context.permissionRequests()).as("dontAsk refuses without asking the gate").isEmpty();
    TurnEvent.PermissionDenied denied = context.events(TurnEvent.PermissionDenied.class).get(0);
    assertThat(denied.callId()).isEqualTo("toolu_bash_2");
    assertThat(denied.tool()).isEqualTo("Bash");
    assertThat(denied.reason()).contains("don't ask mode");
    assertThat(project.resolve("made.txt")).doesNotExist();
    assertThat(driver().capabilities().permissionModes()).contains("dontAsk", "acceptEdits", "plan");
  }

  @Test
  void aLingeringSessionAnswersTheNextMessageInTheSameProcess() throws Exception {
    server.enqueue(answer("First answer."), answer("Second answer."));
    RecordingTurnContext context = new RecordingTurnContext(1).thenMessages("and now the second question");

    assertThat(finish(start(driver(), request("first question"), context))).isNull();

    assertThat(context.shape()).isEqualTo(
        "turn.session turn.message turn.usage turn.result turn.message turn.usage turn.result");
    assertThat(context.events(TurnEvent.Result.class)).extracting(TurnEvent.Result::text).containsExactly("First answer.", "Second answer.");
    // One conversation: the second request carries the first exchange.
    assertThat(server.request(1).text()).contains("first question", "First answer.", "and now the second question");
    // Cost per answer, not the CLI's running total.
    List<TurnEvent.Usage> usages = context.events(TurnEvent.Usage.class);
    assertThat(usages.get(1).costUsd()).isEqualTo(usages.get(0).costUsd());
  }

  @Test
  void stopMidStreamInterruptsTheCliWhichEndsOnItsOwn() throws Exception {
    server.enqueue(FakeAnthropicServer.stall("This answer ", "never ends"));
    RecordingTurnContext context = new RecordingTurnContext(1);
    BackgroundTurn turn = start(driver(), request("talk forever"), context);
    context.awaitEvent("the first delta", Duration.ofSeconds(30), event -> event instanceof TurnEvent.TextDelta);

    long stopping = System.nanoTime();
    context.stop();
    Throwable thrown = finish(turn);

    assertThat(thrown).isInstanceOf(TurnStoppedException.class);
    // The stop grace is 8 s: ending well within it means the CLI ended the answer itself, not the kill.
    assertThat(Duration.ofNanos(System.nanoTime() - stopping)).isLessThan(Duration.ofSeconds(5));
    assertThat(context.shape()).doesNotContain("turn.result").doesNotContain("turn.error");
  }

  @Test
  void stopKillsTheProcessGroupWhenTheCliIgnoresTheInterrupt() throws Exception {
    // A stand-in CLI that reports a session, then ignores its stdin, SIGTERM and the interrupt.
    Path stubborn = home.resolve("stubborn-claude");
    Files.writeString(stubborn, """
        #!/bin/bash
        trap '' TERM INT
        read -r line
        echo '{"type":"system","subtype":"init","session_id":"5f0c1c9e-0000-4000-8000-000000000001","model":"stub"}'
        (trap '' TERM; sleep 300) &
        while true; do sleep 1; done
        """);
    stubborn.toFile().setExecutable(true);
    ClaudeSettings settings = new ClaudeSettings(
        OfflineClaude.command(stubborn.toString(), server, home), Duration.ofSeconds(1), Duration.ofSeconds(5));
    RecordingTurnContext context = new RecordingTurnContext(1);
    BackgroundTurn turn = start(driver(settings), request("hello"), context);
    context.awaitEvent("the session", Duration.ofSeconds(20), event -> event instanceof TurnEvent.SessionStarted);

    long stopping = System.nanoTime();
    context.stop();

    assertThat(finish(turn)).isInstanceOf(TurnStoppedException.class);
    assertThat(Duration.ofNanos(System.nanoTime() - stopping)).isLessThan(Duration.ofSeconds(8));
    ChildProcesses.assertNoneLeft(Duration.ofSeconds(5));
  }

  @Test
  void aLaterTurnResumesTheStoredSession() throws Exception {
    server.enqueue(answer("Remember: the code word is heron."), answer("The code word was heron."));
    RecordingTurnContext first = new RecordingTurnContext(1);
    assertThat(finish(start(driver(), request("remember a code word"), first))).isNull();
    String sessionId = first.events(TurnEvent.SessionStarted.class).get(0).sessionId();

    RecordingTurnContext second = new RecordingTurnContext(2);
    assertThat(finish(start(driver(), request("what was the code word?", sessionId, List.of(), null), second))).isNull();

    assertThat(second.events(TurnEvent.SessionStarted.class)).extracting(TurnEvent.SessionStarted::sessionId).containsExactly(sessionId);
    assertThat(server.request(1).text()).contains("remember a code word", "Remember: the code word is heron.", "what was the code word?");
  }

  @Test
  void aVanishedSessionStartsFreshWithTheTasksSummaries() throws Exception {
    server.enqueue(answer("Starting again."));
    String gone = UUID.randomUUID().toString();
    RecordingTurnContext context = new RecordingTurnContext(1);

    Throwable thrown = finish(start(driver(), request("carry on", gone, List.of("We chose SQLite for the store."), null), context));

    assertThat(thrown).isNull();
    assertThat(context.shape()).isEqualTo("turn.session turn.message turn.usage turn.result");
    assertThat(context.events(TurnEvent.SessionStarted.class).get(0).sessionId()).isNotEqualTo(gone);
    assertThat(server.requests()).hasSize(1);
    assertThat(systemPrompt(server.request(0))).contains("We chose SQLite for the store.").contains("Task #7: Say hello");
  }

  @Test
  void anApiErrorFailsTheTurnThoughTheCliSaysSuccess() throws Exception {
    server.enqueue(failure(400, "invalid_request_error", "model fake-model does not exist"));
    RecordingTurnContext context = new RecordingTurnContext(1);

    Throwable thrown = finish(start(driver(), request("hello"), context));

    assertThat(thrown).isInstanceOf(RoundhouseException.class).hasMessageStartingWith("Claude Code: the model API answered 400");
    assertThat(context.shape()).doesNotContain("turn.result").doesNotContain("turn.message");
  }

  @Test
  void aCliThatExitsAtOnceFailsTheTurnWithItsStderr() throws Exception {
    RecordingTurnContext context = new RecordingTurnContext(1);

    Throwable thrown = finish(start(driver(), request("hello", null, List.of(), "no-such-mode"), context));

    assertThat(thrown).isInstanceOf(RoundhouseException.class)
        .hasMessageStartingWith("Claude Code exited with code 1 before finishing its answer")
        .hasMessageContaining("no-such-mode");
  }

  @Test
  void aMissingProgramFailsTheTurnNamingIt() throws Exception {
    ClaudeSettings settings = new ClaudeSettings(
        new AgentCommand(home.resolve("not-installed/claude").toString(), List.of(), java.util.Map.of()), Duration.ofSeconds(1), Duration.ofSeconds(5));
    RecordingTurnContext context = new RecordingTurnContext(1);

    Throwable thrown = finish(start(driver(settings), request("hello"), context));

    assertThat(thrown).isInstanceOf(RoundhouseException.class).hasMessageContaining("not-installed/claude is not an executable file");
    assertThat(driver(settings).authStatus().ok()).isFalse();
    assertThat(driver(settings).authStatus().detail()).startsWith("Claude Code is not installed: ").contains("not-installed/claude");
  }

  @Test
  void authStatusNamesTheVersionAndTheKeySource() {
    assertThat(driver().authStatus()).satisfies(status -> {
      assertThat(status.ok()).isTrue();
      assertThat(status.detail()).startsWith("Claude Code 2.1.332 (").endsWith("logged in with an API key from ANTHROPIC_API_KEY");
    });
    ClaudeSettings keyless = OfflineClaude.settings(server, home, Duration.ofSeconds(1));
    java.util.Map<String, String> env = new java.util.HashMap<>(keyless.command().env());
    env.remove("ANTHROPIC_API_KEY");
    ClaudeSettings noKey = keyless.withCommand(new AgentCommand(keyless.command().program(), List.of(), env));
    assertThat(driver(noKey).authStatus()).satisfies(status -> {
      assertThat(status.ok()).isFalse();
      assertThat(status.detail()).contains("has no login or API key").contains("claude auth login");
    });
  }

  @Test
  void capabilitiesComeFromTheCli() {
    var capabilities = driver().capabilities();
    assertThat(capabilities.displayName()).isEqualTo("Claude Code");
    assertThat(capabilities.permissionModes()).contains("acceptEdits", "bypassPermissions", "plan");
    assertThat(capabilities.models()).contains("opus", "sonnet");
    assertThat(capabilities.supportsLinger()).isTrue();
    assertThat(capabilities.supportsResume()).isTrue();
    assertThat(capabilities.reportsCost()).isTrue();
  }

  @Test
  void theHubsMcpEndpointIsPassedWithTheTaskToken() throws Exception {
    try (LiveAgentEndpoint hub = LiveAgentEndpoint.open()) {
      server.enqueue(
          answer(toolUse("toolu_mcp_1", "mcp__roundhouse__suggest_task", "{\"project\": \"web\", \"title\": \"Add a README\"}")),
          answer("I suggested it."));
      RecordingTurnContext context = new RecordingTurnContext(1)
          .endpoint(hub.endpoint())
          .answer(PermissionVerdict.allow("allowed by the user"));
      List<Path> foldersBefore = turnFolders();

      assertThat(finish(start(driver(), request("suggest a task"), context))).isNull();

      assertThat(server.request(0).text()).contains("mcp__roundhouse__suggest_task");
      assertThat(context.permissionRequests()).singleElement().satisfies(asked -> assertThat(asked.description())
          .isEqualTo("Call tool suggest_task of MCP server roundhouse with {\"project\":\"web\",\"title\":\"Add a README\"}"));
      // The call reached the hub with the task token: the suggestion is the task's agent's.
      JsonNode suggestion = hub.taskTitled("Add a README");
      assertThat(suggestion.path("suggested").asBoolean()).isTrue();
      assertThat(suggestion.path("created_by").asText()).isEqualTo("agent:" + hub.task());
      assertThat(context.events(TurnEvent.ToolResult.class).get(0).output())
          .contains("suggest_task filed task " + suggestion.path("id").asLong() + " 'Add a README'");
      assertThat(turnFolders()).as("the folder with the token is deleted").containsExactlyInAnyOrderElementsOf(foldersBefore);
    }
  }

  @Test
  void askUserQuestionBecomesAQuestionForTheUser() throws Exception {
    String questions = "{\"questions\": [{\"question\": \"Which database?\", \"header\": \"DB\", \"multiSelect\": false, "
        + "\"options\": [{\"label\": \"SQLite\", \"description\": \"embedded\"}, {\"label\": \"Postgres\", \"description\": \"a server\"}]}]}";
    server.enqueue(answer(toolUse("toolu_ask_1", "AskUserQuestion", questions)), answer("SQLite it is."),
        answer(toolUse("toolu_ask_2", "AskUserQuestion", questions)), answer("No answer, then."));
    RecordingTurnContext context = new RecordingTurnContext(1).reply("SQLite").thenMessages("ask again");

    assertThat(finish(start(driver(), request("pick a database"), context))).isNull();

    assertThat(context.permissionRequests()).as("a question is not a permission").isEmpty();
    assertThat(context.questionsWithOptions()).containsExactly("DB: Which database? [SQLite, Postgres]", "DB: Which database? [SQLite, Postgres]");
    List<TurnEvent.ToolResult> results = context.events(TurnEvent.ToolResult.class);
    assertThat(results.get(0).output()).contains("\"Which database?\"=\"SQLite\"");
    assertThat(results.get(0).isError()).isFalse();
    assertThat(results.get(1).output()).contains("The user gave no answer");
    assertThat(results.get(1).isError()).isTrue();
  }

  private static List<Path> turnFolders() throws java.io.IOException {
    try (var list = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      return list.filter(path -> path.getFileName().toString().startsWith("roundhouse-claude-")).toList();
    }
  }

}
