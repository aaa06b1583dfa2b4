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
import dev.roundhouse.hub.RoundhouseException;
import dev.roundhouse.hub.turns.PermissionRequest;
import dev.roundhouse.hub.turns.PermissionVerdict;
import dev.roundhouse.hub.turns.TurnEvent;
import dev.roundhouse.hub.turns.TurnRequest;
import dev.roundhouse.hub.turns.TurnStoppedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
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

    assertThat(context.shape()).isEqualTo("turn.session turn.message turn.usage turn.result");
    assertThat(context.text()).isEqualTo("Hello from the fake.");
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
    assertThat(server.request(0).toString()).contains("Task: say hello");
  }

  @Test
  void anApprovedCommandRunsAndItsOutputIsReported() throws Exception {
    server.enqueue(shell("call_1", "echo made-by-codex > made.txt; cat made.txt"), text("Done."));
    RecordingTurnContext context = new RecordingTurnContext(1).answer(PermissionVerdict.allow("allowed by test"));

    driver().run(request("make a file"), context);

    assertThat(context.shape()).isEqualTo("turn.session turn.tool_call turn.tool_result turn.usage turn.message turn.usage turn.result");
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
    assertThat(server.request(1).toString()).contains("made-by-codex");
  }
}
