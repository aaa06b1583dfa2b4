package dev.roundhouse.drivers.script;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.roundhouse.drivers.testing.RecordingTurnContext;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.spi.DriverCapabilities;
import dev.roundhouse.hub.spi.PermissionRequest;
import dev.roundhouse.hub.spi.TurnEvent.AssistantMessage;
import dev.roundhouse.hub.spi.TurnEvent.PermissionDenied;
import dev.roundhouse.hub.spi.TurnEvent.Result;
import dev.roundhouse.hub.spi.TurnEvent.SessionStarted;
import dev.roundhouse.hub.spi.TurnEvent.TextDelta;
import dev.roundhouse.hub.spi.TurnEvent.ToolCall;
import dev.roundhouse.hub.spi.TurnEvent.ToolOutputDelta;
import dev.roundhouse.hub.spi.TurnEvent.ToolResult;
import dev.roundhouse.hub.spi.TurnEvent.Usage;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.spi.TurnRequest;
import dev.roundhouse.hub.spi.TurnStoppedException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ScriptDriverTest {
  private static final long TURN = 42;
  private static final Duration DEADLINE = Duration.ofSeconds(10);

  private final ScriptDriver driver = new ScriptDriver();
  // As a hub turn lingers: awaitNextMessage waits for a message, the end of the linger, or a stop.
  private final RecordingTurnContext context = new RecordingTurnContext(TURN).holdLinger();
  private final List<Thread> turnThreads = new ArrayList<>();

  @AfterEach
  void noTurnOutlivesItsTest() throws InterruptedException {
    context.stop();
    for (Thread thread : turnThreads) {
      assertThat(thread.join(DEADLINE)).as("turn thread ended").isTrue();
    }
  }

  @Test
  void capabilitiesAreTheScriptDriversOwn() {
    DriverCapabilities capabilities = driver.capabilities();

    assertThat(driver.id()).isEqualTo("script");
    assertThat(capabilities.displayName()).isEqualTo("Script (tests and demo)");
    assertThat(capabilities.models()).containsExactly("script");
    assertThat(capabilities.supportsAsks()).isTrue();
    assertThat(capabilities.reportsCost()).isTrue();
    assertThat(capabilities.supportsResume()).isFalse();
    assertThat(capabilities.supportsLinger()).isTrue();
    assertThat(capabilities.readOnlyTools()).isEqualTo(Set.of("Read", "Glob", "Grep"));
    assertThat(driver.authStatus().ok()).isTrue();
  }

  @Test
  void streamedTextIsCompletedAsOneMessageBeforeTheResult() throws Exception {
    run("{\"steps\": [{\"text\": \"Hello \"}, {\"delay_ms\": 1}, {\"text\": \"world\"}]}");

    assertThat(context.events())
        .containsExactly(
            new SessionStarted("script-42", "script"),
            new TextDelta("Hello "),
            new TextDelta("world"),
            new AssistantMessage("Hello world"),
            new Result("end_turn", "Hello world"));
  }

  @Test
  void aMessageStepCompletesTheStreamedTextAndStandsAlone() throws Exception {
    run("{\"session\": \"abc\", \"steps\": [{\"text\": \"a\"}, {\"message\": \"b\"}, {\"text\": \"c\"}]}");

    assertThat(context.events())
        .containsExactly(
            new SessionStarted("abc", "script"),
            new TextDelta("a"),
            new AssistantMessage("a"),
            new AssistantMessage("b"),
            new TextDelta("c"),
            new AssistantMessage("c"),
            new Result("end_turn", "c"));
  }

  @Test
  void theRequestedModelIsReported() throws Exception {
    driver.run(request("hi", "script"), context);

    assertThat(context.events().getFirst()).isEqualTo(new SessionStarted("script-42", "script"));
  }

  @Test
  void aPlainMessageIsEchoed() throws Exception {
    run("run the tests");

    assertThat(context.events(AssistantMessage.class)).containsExactly(new AssistantMessage("You said: run the tests"));
    assertThat(context.events(TextDelta.class)).hasSizeGreaterThan(1);
    assertThat(context.events(Usage.class)).hasSize(1);
    assertThat(context.events().getLast()).isEqualTo(new Result("end_turn", "You said: run the tests"));
  }

  @Test
  void anAllowedToolStreamsItsOutputAndResult() throws Exception {
    context.allow("allowed by you");

    run(
        """
        {"steps": [{"tool": "Bash", "input": {"command": "npm test"}, "ask": true,
                    "output": ["line1\\n", "line2\\n"], "result": "ok"}]}
        """);

    JsonNode input = JsonNodeFactory.instance.objectNode().put("command", "npm test");
    assertThat(context.permissionRequests())
        .containsExactly(new PermissionRequest("call-1", "Bash", input, "Run: npm test", "npm test"));
    assertThat(context.events())
        .containsExactly(
            new SessionStarted("script-42", "script"),
            new ToolCall("call-1", "Bash", input),
            new ToolOutputDelta("call-1", "line1\n"),
            new ToolOutputDelta("call-1", "line2\n"),
            new ToolResult("call-1", "ok", false),
            new Result("end_turn", null));
  }

  @Test
  void aToolThatDoesNotAskNeverReachesTheGate() throws Exception {
    run("{\"steps\": [{\"tool\": \"Read\", \"id\": \"r1\", \"result\": \"text\", \"error\": true}]}");

    assertThat(context.permissionRequests()).isEmpty();
    assertThat(context.events(ToolResult.class)).containsExactly(new ToolResult("r1", "text", true));
  }

  @Test
  void aToolWithoutACommandIsDescribedByItsInput() throws Exception {
    context.allow("read-only");

    run("{\"steps\": [{\"tool\": \"Read\", \"input\": {\"file_path\": \"a.txt\"}, \"ask\": true}]}");

    assertThat(context.permissionRequests().getFirst().description()).isEqualTo("Read {\"file_path\":\"a.txt\"}");
    assertThat(context.permissionRequests().getFirst().command()).isNull();
  }

  @Test
  void aDeniedToolIsRecordedAsDeniedAndItsResultSkipped() throws Exception {
    context.deny("denied by you");

    run(
        """
        {"steps": [{"tool": "Bash", "input": {"command": "rm -rf build"}, "ask": true, "output": "gone",
                    "result": "ok", "denied": [{"message": "I won't."}]},
                   {"message": "after"}]}
        """);

    assertThat(context.events(PermissionDenied.class))
        .containsExactly(new PermissionDenied("call-1", "Bash", "denied by you"));
    assertThat(context.events(ToolOutputDelta.class)).isEmpty();
    assertThat(context.events(ToolResult.class)).isEmpty();
    assertThat(context.events(AssistantMessage.class))
        .containsExactly(new AssistantMessage("I won't."), new AssistantMessage("after"));
  }

  @Test
  void aResultInTheDeniedStepsEndsTheAnswer() throws Exception {
    context.deny("no");

    run(
        """
        {"steps": [{"tool": "Bash", "ask": true, "denied": [{"message": "stopping"}, {"result": "denied"}]},
                   {"message": "never"}]}
        """);

    assertThat(context.events(AssistantMessage.class)).containsExactly(new AssistantMessage("stopping"));
    assertThat(context.events().getLast()).isEqualTo(new Result("denied", "stopping"));
  }

  @Test
  void anUnscriptedPermissionIsDenied() throws Exception {
    run("{\"steps\": [{\"tool\": \"Bash\", \"command\": \"make\", \"ask\": true, \"result\": \"built\"}]}");

    assertThat(context.events(PermissionDenied.class)).hasSize(1);
    assertThat(context.events(ToolResult.class)).isEmpty();
  }

  @Test
  void theUsersAnswerIsTheQuestionsResultAndFillsLaterText() throws Exception {
    context.reply("sqlite");

    run(
        """
        {"steps": [{"ask_user": "Which database?", "options": ["postgres", "sqlite"]},
                   {"text": "Using {{answer}}."},
                   {"tool": "Bash", "result": "created {{answer}} db"}]}
        """);

    assertThat(context.questions()).containsExactly("Which database?");
    ToolCall question = context.events(ToolCall.class).getFirst();
    assertThat(question.tool()).isEqualTo("AskUserQuestion");
    assertThat(question.input().toString()).isEqualTo("{\"question\":\"Which database?\",\"options\":[\"postgres\",\"sqlite\"]}");
    assertThat(context.events(ToolResult.class))
        .containsExactly(new ToolResult("call-1", "sqlite", false), new ToolResult("call-2", "created sqlite db", false));
    assertThat(context.events(AssistantMessage.class)).containsExactly(new AssistantMessage("Using sqlite."));
  }

  @Test
  void anUnansweredQuestionSaysSo() throws Exception {
    context.noReply();

    run("{\"steps\": [{\"ask_user\": \"Name?\"}, {\"message\": \"Got: {{answer}}\"}]}");

    assertThat(context.events(ToolResult.class)).containsExactly(new ToolResult("call-1", "no answer", true));
    assertThat(context.events(AssistantMessage.class)).containsExactly(new AssistantMessage("Got: no answer"));
  }

  @Test
  void usageIsReported() throws Exception {
    run("{\"steps\": [{\"usage\": {\"input\": 100, \"output\": 20, \"cost\": 0.01, \"estimated\": true}}]}");

    assertThat(context.events(Usage.class)).containsExactly(new Usage(100, 20, 0.01, true));
  }

  @Test
  void repeatStreamsEveryFragmentAndCompletesOneMessage() throws Exception {
    run("{\"steps\": [{\"repeat\": 10000, \"steps\": [{\"text\": \"x\"}]}]}");

    assertThat(context.events(TextDelta.class)).hasSize(10000);
    assertThat(context.events(AssistantMessage.class)).containsExactly(new AssistantMessage("x".repeat(10000)));
  }

  @Test
  void callOpIsRecordedAsAToolCallAndItsResult() throws Exception {
    context.operation("task_get", input -> JsonNodeFactory.instance.objectNode().put("id", input.get("task").asLong()));

    run("{\"steps\": [{\"call_op\": \"task_get\", \"input\": {\"task\": 1}}, {\"call_op\": \"task_gone\"}]}");

    assertThat(context.events(ToolCall.class))
        .containsExactly(
            new ToolCall("call-1", "task_get", JsonNodeFactory.instance.objectNode().put("task", 1)),
            new ToolCall("call-2", "task_gone", JsonNodeFactory.instance.objectNode()));
    assertThat(context.events(ToolResult.class))
        .containsExactly(
            new ToolResult("call-1", "{\"id\":1}", false), new ToolResult("call-2", "no operation 'task_gone'", true));
  }

  @Test
  void anErrorStepIsReportedAndTheTurnGoesOn() throws Exception {
    run("{\"steps\": [{\"error\": \"rate limited, retrying\"}, {\"message\": \"done\"}]}");

    assertThat(context.events())
        .containsSubsequence(new TurnEvent.Error("rate limited, retrying"), new AssistantMessage("done"));
  }

  @Test
  void aFailStepFailsTheTurnWithItsMessageAfterRecordingTheText() {
    assertThatThrownBy(() -> run("{\"steps\": [{\"text\": \"partial\"}, {\"fail\": \"the agent crashed\"}]}"))
        .isInstanceOf(RoundhouseException.class)
        .hasMessage("the agent crashed");
    assertThat(context.events(AssistantMessage.class)).containsExactly(new AssistantMessage("partial"));
    assertThat(context.events(Result.class)).isEmpty();
  }

  @Test
  void aMalformedScriptFailsTheTurnNamingTheStep() {
    assertThatThrownBy(() -> run("{\"steps\": [{\"text\": \"a\"}, {\"text\": \"b\"}, {\"tol\": \"Bash\"}]}"))
        .isInstanceOf(InvalidScriptException.class)
        .hasMessageStartingWith("step 3: unknown step kind 'tol' (expected one of text, message, thought, plan, tool,");
    assertThat(context.events()).isEmpty();
  }

  @Test
  void aHangBlocksUntilTheTurnIsStopped() throws Exception {
    FutureTask<Void> turn = start("{\"steps\": [{\"text\": \"thinking\"}, {\"hang\": true}]}");
    context.awaitEvent("the message before the hang", DEADLINE, AssistantMessage.class::isInstance);
    assertThat(turn.isDone()).isFalse();

    context.stop();

    assertThat(outcome(turn)).isInstanceOf(TurnStoppedException.class).hasMessage("turn 42 was stopped");
  }

  @Test
  void aDelayEndsPromptlyWhenTheTurnIsStopped() throws Exception {
    FutureTask<Void> turn = start("{\"steps\": [{\"text\": \"a\"}, {\"delay_ms\": 3600000}, {\"text\": \"b\"}]}");
    context.awaitEvent("the first fragment", DEADLINE, TextDelta.class::isInstance);

    long stoppedAt = System.nanoTime();
    context.stop();

    assertThat(outcome(turn)).isInstanceOf(TurnStoppedException.class);
    assertThat(Duration.ofNanos(System.nanoTime() - stoppedAt)).isLessThan(Duration.ofSeconds(2));
    assertThat(context.events(TextDelta.class)).containsExactly(new TextDelta("a"));
  }

  @Test
  void aStopWhileAwaitingPermissionUnwindsWithoutRunningTheTool() throws Exception {
    context.holdUnanswered();
    FutureTask<Void> turn = start("{\"steps\": [{\"tool\": \"Bash\", \"command\": \"deploy\", \"ask\": true, \"result\": \"ok\"}]}");
    context.awaitDriverWaiting(DEADLINE);

    context.stop();

    assertThat(outcome(turn)).isInstanceOf(TurnStoppedException.class);
    assertThat(context.events(ToolResult.class)).isEmpty();
  }

  @Test
  void aStopWhileAwaitingAnAnswerUnwinds() throws Exception {
    context.holdUnanswered();
    FutureTask<Void> turn = start("{\"steps\": [{\"ask_user\": \"Sure?\"}, {\"message\": \"never\"}]}");
    context.awaitDriverWaiting(DEADLINE);

    context.stop();

    assertThat(outcome(turn)).isInstanceOf(TurnStoppedException.class);
    assertThat(context.events(AssistantMessage.class)).isEmpty();
  }

  @Test
  void aLingeringSessionPlaysEachNextMessageUntilNoneComes() throws Exception {
    context.send("second").send("{\"steps\": [{\"message\": \"third\"}]}").endLinger();

    run("{\"linger\": true, \"steps\": [{\"message\": \"first\"}]}");

    assertThat(context.events(AssistantMessage.class))
        .containsExactly(
            new AssistantMessage("first"), new AssistantMessage("You said: second"), new AssistantMessage("third"));
    assertThat(context.events(Result.class)).hasSize(3);
    assertThat(context.events(SessionStarted.class)).hasSize(1);
  }

  @Test
  void aLingeringSessionWaitsForTheNextMessage() throws Exception {
    FutureTask<Void> turn = start("{\"linger\": true, \"steps\": [{\"message\": \"first\"}]}");
    context.awaitDriverWaiting(DEADLINE);
    assertThat(context.events().getLast()).isEqualTo(new Result("end_turn", "first"));

    context.send("again");
    context.awaitEvent("the second answer", DEADLINE, new AssistantMessage("You said: again")::equals);
    context.endLinger();

    assertThat(outcome(turn)).isNull();
  }

  @Test
  void aLaterScriptCanEndTheLinger() throws Exception {
    context.send("{\"linger\": false, \"steps\": [{\"message\": \"bye\"}]}").send("not played");

    run("{\"linger\": true, \"steps\": [{\"message\": \"first\"}]}");

    assertThat(context.events(AssistantMessage.class))
        .containsExactly(new AssistantMessage("first"), new AssistantMessage("bye"));
  }

  @Test
  void withoutLingerTheTurnEndsAfterTheResult() throws Exception {
    context.send("not played");

    run("{\"steps\": [{\"message\": \"only\"}]}");

    assertThat(context.events(Result.class)).hasSize(1);
  }

  @Test
  void aMalformedLaterMessageFailsTheTurn() {
    context.send("{\"steps\": [{\"hang\": false}]}");

    assertThatThrownBy(() -> run("{\"linger\": true, \"steps\": []}"))
        .isInstanceOf(InvalidScriptException.class)
        .hasMessage("step 1: 'hang' must be true, not false");
  }

  @Test
  void theDemoAsksOnlyForBashAndFinishesWhenAllowed() throws Exception {
    context.allow("read-only tool").allow("read-only tool").allow("allowed once by you");

    run("script:demo");

    assertThat(context.permissionRequests()).extracting(PermissionRequest::tool).containsExactly("Read", "Grep", "Bash");
    PermissionRequest bash = context.permissionRequests().getLast();
    assertThat(bash.command()).isEqualTo("npm test");
    assertThat(bash.description()).isEqualTo("Run: npm test");
    assertThat(context.events(ToolOutputDelta.class)).isNotEmpty();
    assertThat(context.events(Usage.class)).hasSize(1);
    Result result = (Result) context.events().getLast();
    assertThat(result.text()).contains("all 3 tests pass");
  }

  @Test
  void theDemoExplainsItselfWhenBashIsDenied() throws Exception {
    context.allow("read-only tool").allow("read-only tool").deny("denied by you");

    run("script:demo");

    assertThat(context.events(PermissionDenied.class)).hasSize(1);
    assertThat(context.events(ToolOutputDelta.class)).isEmpty();
    Result result = (Result) context.events().getLast();
    assertThat(result.text()).contains("I won't run the tests");
  }

  private void run(String message) throws Exception {
    driver.run(request(message, null), context);
  }

  private FutureTask<Void> start(String message) {
    FutureTask<Void> turn =
        new FutureTask<>(
            () -> {
              driver.run(request(message, null), context);
              return null;
            });
    turnThreads.add(Thread.ofVirtual().name("turn-" + TURN).start(turn));
    return turn;
  }

  /** The turn's exception, or null when it completed; fails if it does not end in time. */
  private static Throwable outcome(FutureTask<Void> turn) throws InterruptedException {
    try {
      turn.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
      return null;
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (TimeoutException e) {
      throw new AssertionError("the turn did not end within " + DEADLINE);
    }
  }

  private static TurnRequest request(String message, String model) {
    return new TurnRequest(TURN, 7, "web", Path.of("."), message, "", List.of(), null, model, null, false);
  }
}
