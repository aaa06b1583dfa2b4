package dev.roundhouse.drivers.openai;

import static dev.roundhouse.drivers.openai.FakeModelServer.disconnectAfter;
import static dev.roundhouse.drivers.openai.FakeModelServer.finishChunk;
import static dev.roundhouse.drivers.openai.FakeModelServer.models;
import static dev.roundhouse.drivers.openai.FakeModelServer.status;
import static dev.roundhouse.drivers.openai.FakeModelServer.stream;
import static dev.roundhouse.drivers.openai.FakeModelServer.streamText;
import static dev.roundhouse.drivers.openai.FakeModelServer.streamToolCall;
import static dev.roundhouse.drivers.openai.FakeModelServer.textChunk;
import static dev.roundhouse.drivers.openai.FakeModelServer.toolCallChunk;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.drivers.testing.BackgroundTurn;
import dev.roundhouse.drivers.testing.RecordedRequest;
import dev.roundhouse.drivers.testing.RecordingTurnContext;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.ops.OperationAnnotations;
import dev.roundhouse.hub.ops.OperationDescriptor;
import dev.roundhouse.hub.testing.Waits;
import dev.roundhouse.hub.spi.AuthStatus;
import dev.roundhouse.hub.spi.DriverCapabilities;
import dev.roundhouse.hub.spi.PermissionVerdict;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.spi.TurnRequest;
import dev.roundhouse.hub.spi.TurnStoppedException;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Whole turns of the driver against the fake model server, with a recording turn context. */
@ExtendWith(LeakCheck.class)
class OpenAiDriverTest {
  static final String KEY = "sk-test-0123456789abcdefKEY";
  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T12:00:00Z"), ZoneOffset.UTC);

  @TempDir Path temp;
  Path home;
  Path repo;
  final FakeModelServer server = FakeModelServer.start();
  final RecordingSleeper sleeper = new RecordingSleeper();
  final List<String> warnings = new CopyOnWriteArrayList<>();
  final RecordingTurnContext context = new RecordingTurnContext(7, CLOCK);
  final Map<String, String> env = new HashMap<>();

  @BeforeEach
  void setUp() throws IOException {
    home = Files.createDirectories(temp.resolve("home"));
    repo = Files.createDirectories(temp.resolve("repo"));
    Files.writeString(repo.resolve("README.md"), "hello from the repo\n");
    env.put("ROUNDHOUSE_OPENAI_BASE_URL", server.baseUrl());
    env.put("ROUNDHOUSE_OPENAI_API_KEY", KEY);
    env.put("ROUNDHOUSE_OPENAI_MODEL", "test-model");
  }

  @AfterEach
  void tearDown() {
    server.close();
  }

  private OpenAiDriver driver() {
    return driver(50);
  }

  private OpenAiDriver driver(int maxSteps) {
    return new OpenAiDriver(env, home, new OpenAiDriver.Tuning(
        sleeper, () -> 0L, CLOCK, RetryPolicy.DEFAULT, maxSteps, Duration.ofMinutes(1), Duration.ofSeconds(10), Duration.ofSeconds(5), warnings::add));
  }

  private TurnRequest request(String message) {
    return new TurnRequest(7, 42, "web", repo, message, "Project web: a small site.\nTask 42: fix the greeting", List.of("First session: read the code.", "Second session: found the bug."), null, null, null, false);
  }

  private void run(String message) throws Exception {
    driver().run(request(message), context);
  }

  private static JsonNode messages(RecordedRequest request) {
    return request.json().path("messages");
  }

  private String endpoint() {
    return "the endpoint at 127.0.0.1:" + java.net.URI.create(server.baseUrl()).getPort();
  }

  @Test
  void aTextTurnEmitsTheEventContractInOrder() throws Exception {
    server.enqueue(streamText("Hel", "lo"));

    run("hi");

    assertThat(context.shape()).isEqualTo("turn.session turn.message turn.usage turn.result");
    assertThat(context.events(TurnEvent.TextDelta.class)).extracting(TurnEvent.TextDelta::text).containsExactly("Hel", "lo");
    TurnEvent.SessionStarted session = context.events(TurnEvent.SessionStarted.class).get(0);
    assertThat(session.model()).isEqualTo("test-model");
    assertThat(UUID.fromString(session.sessionId())).isNotNull();
    assertThat(context.events(TurnEvent.AssistantMessage.class)).containsExactly(new TurnEvent.AssistantMessage("Hello"));
    assertThat(context.events(TurnEvent.Usage.class)).containsExactly(new TurnEvent.Usage(10, 2, null, false));
    assertThat(context.events(TurnEvent.Result.class)).containsExactly(new TurnEvent.Result("stop", "Hello"));
    assertThat(context.stopActions()).isEqualTo(1);
  }

  @Test
  void theSystemPromptCarriesTheContextAndEarlierSummariesAndTheToolsAreOffered() throws Exception {
    server.enqueue(streamText("ok"));
    context.tool(new OperationDescriptor("task_get", "Reads a task", Json.mapper().readTree("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"integer\"}},\"required\":[\"id\"]}"), null, OperationAnnotations.READ), input -> input);

    run("fix the greeting");

    JsonNode body = server.request(0).json();
    JsonNode messages = body.path("messages");
    assertThat(messages.get(0).path("role").asText()).isEqualTo("system");
    String prompt = messages.get(0).path("content").asText();
    assertThat(prompt).contains("working in the folder " + repo).contains("Project web: a small site.\nTask 42: fix the greeting");
    assertThat(prompt.indexOf("First session")).isLessThan(prompt.indexOf("Second session")).isPositive();
    assertThat(messages.get(1).path("role").asText()).isEqualTo("user");
    assertThat(messages.get(1).path("content").asText()).isEqualTo("fix the greeting");
    List<String> tools = body.path("tools").findValuesAsText("name");
    assertThat(tools).containsExactly("read_file", "list_files", "search", "write_file", "edit_file", "run_command", "task_get");
    JsonNode taskGet = body.path("tools").get(6).path("function");
    assertThat(taskGet.path("parameters").path("required").get(0).asText()).isEqualTo("id");
    assertThat(taskGet.path("description").asText()).isEqualTo("Reads a task");
  }

  @Test
  void aTurnThatIsNotCodingWorkIsPromptedWithItsOwnPromptAndOfferedNoWorkspaceTools() throws Exception {
    server.enqueue(streamToolCall("call_1", "read_file", "{\"path\": \"README.md\"}"), streamText("ok"));
    context.tool(new OperationDescriptor("task_get", "Reads a task", Json.mapper().readTree("{\"type\":\"object\"}"), null, OperationAnnotations.READ), input -> input);
    TurnRequest calendar = new TurnRequest(7, 42, "life", repo, "plan my week", "Task 42: plan my week", List.of(), null, null, null,
        false, Map.of(), "# The calendar agent\n\nYou help the user plan their calendars.");

    driver().run(calendar, context);

    String prompt = messages(server.request(0)).get(0).path("content").asText();
    assertThat(prompt).startsWith("# The calendar agent\n\nYou help the user plan their calendars.\n\nYou act only through your tools (task_get).")
        .contains("Tool arguments are one JSON object.").contains("Task 42: plan my week")
        .doesNotContain("coding agent").doesNotContain("edit_file");
    assertThat(server.request(0).json().path("tools").findValuesAsText("name")).containsExactly("task_get");
    assertThat(context.events(TurnEvent.ToolResult.class)).singleElement().satisfies(result -> {
      assertThat(result.isError()).isTrue();
      assertThat(result.output()).isEqualTo("there is no tool named 'read_file'; the tools are: task_get");
    });
  }

  @Test
  void aToolCallRunsAndItsResultGoesBackToTheModel() throws Exception {
    server.enqueue(streamToolCall("call_1", "read_file", "{\"path\": \"README.md\"}"), streamText("It says hello."));

    run("what does the readme say?");

    assertThat(context.shape()).isEqualTo(
        "turn.session turn.usage turn.tool_call turn.tool_result turn.message turn.usage turn.result");
    TurnEvent.ToolCall call = context.events(TurnEvent.ToolCall.class).get(0);
    assertThat(call.callId()).isEqualTo("call_1");
    assertThat(call.tool()).isEqualTo("read_file");
    assertThat(call.input().path("path").asText()).isEqualTo("README.md");
    assertThat(context.events(TurnEvent.ToolResult.class)).containsExactly(new TurnEvent.ToolResult("call_1", "hello from the repo\n", false));
    assertThat(context.permissionRequests()).isEmpty();
    JsonNode history = messages(server.request(1));
    assertThat(history).hasSize(4);
    JsonNode assistant = history.get(2);
    assertThat(assistant.path("role").asText()).isEqualTo("assistant");
    assertThat(assistant.path("content").isNull()).isTrue();
    assertThat(assistant.path("tool_calls").get(0).path("id").asText()).isEqualTo("call_1");
    assertThat(assistant.path("tool_calls").get(0).path("function").path("arguments").asText()).isEqualTo("{\"path\":\"README.md\"}");
    assertThat(history.get(3).path("role").asText()).isEqualTo("tool");
    assertThat(history.get(3).path("tool_call_id").asText()).isEqualTo("call_1");
    assertThat(history.get(3).path("content").asText()).isEqualTo("hello from the repo\n");
    assertThat(context.events(TurnEvent.Result.class).get(0).text()).isEqualTo("It says hello.");
  }

  @Test
  void aDeniedWriteIsReportedToTheTranscriptAndTheModel() throws Exception {
    context.answer(PermissionVerdict.deny("denied by the user"));
    server.enqueue(streamToolCall("call_w", "write_file", "{\"path\": \"README.md\", \"content\": \"gone\"}"), streamText("Understood."));

    run("wipe the readme");

    assertThat(context.shape()).isEqualTo(
        "turn.session turn.usage turn.tool_call turn.permission_denied turn.tool_result turn.message turn.usage turn.result");
    assertThat(context.events(TurnEvent.PermissionDenied.class)).containsExactly(new TurnEvent.PermissionDenied("call_w", "write_file", "denied by the user"));
    TurnEvent.ToolResult result = context.events(TurnEvent.ToolResult.class).get(0);
    assertThat(result.isError()).isTrue();
    assertThat(messages(server.request(1)).get(3).path("content").asText()).startsWith("permission to use write_file was denied: denied by the user.");
    assertThat(Files.readString(repo.resolve("README.md"))).isEqualTo("hello from the repo\n");
  }

  @Test
  void anAllowedCommandStreamsItsOutput() throws Exception {
    context.answer(PermissionVerdict.allow("allowed by the user"));
    server.enqueue(streamToolCall("call_r", "run_command", "{\"command\": \"echo one; echo two\"}"), streamText("Done."));

    run("run it");

    assertThat(context.permissionRequests().get(0).command()).isEqualTo("echo one; echo two");
    assertThat(String.join("", context.events(TurnEvent.ToolOutputDelta.class).stream().map(TurnEvent.ToolOutputDelta::text).toList())).isEqualTo("one\ntwo\n");
    assertThat(context.events(TurnEvent.ToolResult.class)).containsExactly(new TurnEvent.ToolResult("call_r", "one\ntwo\n[exit code 0]", false));
  }

  @Test
  void hubOperationsAreCalledThroughTheContextAndTheirErrorsGoToTheModel() throws Exception {
    context.tool(
        new OperationDescriptor("task_get", "Reads a task", Json.mapper().readTree("{\"type\":\"object\"}"), null, OperationAnnotations.READ),
        input -> {
          if (input.path("id").asLong() != 42) {
            throw new RoundhouseException.NotFound("no task " + input.path("id").asLong());
          }
          return Json.mapper().createObjectNode().put("id", 42).put("title", "fix the greeting");
        });
    server.enqueue(
        stream(toolCallChunk(0, "c1", "task_get", "{\"id\": 42}"), toolCallChunk(1, "c2", "task_get", "{\"id\": 99}"), finishChunk("tool_calls")),
        streamText("Task 42 is about the greeting."));

    run("what is my task?");

    assertThat(context.toolCalls()).containsExactly("task_get {\"id\":42}", "task_get {\"id\":99}");
    assertThat(context.events(TurnEvent.ToolResult.class)).containsExactly(
        new TurnEvent.ToolResult("c1", "{\"id\":42,\"title\":\"fix the greeting\"}", false),
        new TurnEvent.ToolResult("c2", "task_get failed: no task 99", true));
    assertThat(context.events(TurnEvent.Result.class)).hasSize(1);
  }

  @Test
  void brokenArgumentsAreRepairedAndUnrepairableOnesAreExplainedToTheModel() throws Exception {
    server.enqueue(
        stream(
            toolCallChunk(0, "c1", "read_file", "```json\n{\"path\": \"README.md\",}\n```"),
            toolCallChunk(1, "c2", "read_file", "Sure: {\"path\": 'README.md'} hope it helps"),
            toolCallChunk(2, "c3", "read_file", "{\"path\": \"README.md\" \"limit\""),
            finishChunk("tool_calls")),
        streamText("Read it."));

    run("read it three ways");

    List<TurnEvent.ToolResult> results = context.events(TurnEvent.ToolResult.class);
    assertThat(results.get(0)).isEqualTo(new TurnEvent.ToolResult("c1", "hello from the repo\n", false));
    assertThat(results.get(1)).isEqualTo(new TurnEvent.ToolResult("c2", "hello from the repo\n", false));
    assertThat(results.get(2).isError()).isTrue();
    assertThat(results.get(2).output()).startsWith("could not parse the arguments of read_file: ");
    TurnEvent.ToolCall broken = context.events(TurnEvent.ToolCall.class).get(2);
    assertThat(broken.input().asText()).isEqualTo("{\"path\": \"README.md\" \"limit\"");
    JsonNode calls = messages(server.request(1)).get(2).path("tool_calls");
    assertThat(calls.get(0).path("function").path("arguments").asText()).isEqualTo("{\"path\":\"README.md\"}");
    assertThat(calls.get(2).path("function").path("arguments").asText()).isEqualTo("{}");
    assertThat(context.events(TurnEvent.Result.class)).containsExactly(new TurnEvent.Result("stop", "Read it."));
  }

  @Test
  void anUnknownToolIsAToolErrorThatListsTheTools() throws Exception {
    server.enqueue(streamToolCall("c1", "delete_everything", "{}"), streamText("Sorry."));

    run("go");

    assertThat(context.events(TurnEvent.ToolResult.class).get(0).output())
        .isEqualTo("there is no tool named 'delete_everything'; the tools are: read_file, list_files, search, write_file, edit_file, run_command");
  }

  @Test
  void theStepLimitEndsTheTurnAndSaysSo() throws Exception {
    server.enqueue(streamToolCall("c1", "list_files", "{}"), streamToolCall("c2", "list_files", "{}"));

    driver(2).run(request("loop"), context);

    assertThat(server.requests()).hasSize(2);
    assertThat(context.events(TurnEvent.Result.class)).containsExactly(new TurnEvent.Result(
        "max_steps", "Stopped after 2 model steps without a final answer (the step limit); send a message to continue."));
  }

  @Test
  void anEndpointErrorFailsTheTurnWithTheProvidersMessage() {
    server.enqueue(status(401, "{\"error\":{\"message\":\"Invalid API key\"}}"));

    assertThatThrownBy(() -> run("hi"))
        .isInstanceOf(EndpointException.class)
        .hasMessage(endpoint() + " answered 401: Invalid API key");
    // The runner records the exception's message as the turn's turn.error; the driver adds none.
    assertThat(context.shape()).isEqualTo("turn.session");
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void rateLimitsAreWaitedOutWithTheInjectedSleeper() throws Exception {
    server.enqueue(status(429, "{\"error\":{\"message\":\"slow down\"}}", "Retry-After", "3"), streamText("ok"));

    run("hi");

    assertThat(sleeper.waits()).containsExactly(Duration.ofSeconds(3));
    assertThat(context.events(TurnEvent.Result.class)).hasSize(1);
  }

  @Test
  void aDisconnectMidStreamFailsTheTurnWithoutARetry() {
    server.enqueue(disconnectAfter("data: " + textChunk("Hel") + "\n\n"), streamText("duplicate"));

    assertThatThrownBy(() -> run("hi")).isInstanceOf(EndpointException.class).hasMessageContaining("broke off after");

    assertThat(context.shape()).isEqualTo("turn.session");
    assertThat(context.events(TurnEvent.TextDelta.class)).containsExactly(new TurnEvent.TextDelta("Hel"));
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void aStreamRefusedBeforeTheFirstByteFallsBackToAPlainRequest() throws Exception {
    server.enqueue(status(400, "{\"error\":{\"message\":\"stream is not supported\"}}"), status(200, FakeModelServer.completion("Plain answer")));

    run("hi");

    assertThat(context.shape()).isEqualTo("turn.session turn.message turn.usage turn.result");
    assertThat(context.events(TurnEvent.Result.class)).containsExactly(new TurnEvent.Result("stop", "Plain answer"));
  }

  @Test
  void stoppingDuringAStreamEndsTheTurnPromptly() throws Exception {
    server.enqueue(FakeModelServer.stall("data: " + textChunk("Hel") + "\n\n"));
    BackgroundTurn turn = BackgroundTurn.start(driver(), request("hi"), context);
    Waits.until("the first delta", Duration.ofSeconds(10), () -> !context.events(TurnEvent.TextDelta.class).isEmpty());

    context.stop();

    assertThat(turn.outcome(Duration.ofSeconds(10))).isInstanceOf(TurnStoppedException.class);
    assertThat(context.events(TurnEvent.Error.class)).isEmpty();
  }

  @Test
  void stoppingDuringACommandKillsIt() throws Exception {
    context.answer(PermissionVerdict.allow("ok"));
    server.enqueue(streamToolCall("c1", "run_command", "{\"command\": \"echo started; sleep 300\"}"));
    BackgroundTurn turn = BackgroundTurn.start(driver(), request("hi"), context);
    Waits.until("the command to start", Duration.ofSeconds(10), () -> !context.events(TurnEvent.ToolOutputDelta.class).isEmpty());

    context.stop();

    assertThat(turn.outcome(Duration.ofSeconds(10))).isInstanceOf(TurnStoppedException.class);
    // LeakCheck asserts that the sleep is gone.
  }

  @Test
  void theKeyNeverAppearsInEventsErrorsOrWarnings() throws Exception {
    Files.writeString(home.resolve("openai.json"), "{\"projects\":{\"web\":{\"base_url\":\"" + server.baseUrl() + "\",\"api_key\":\"" + KEY + "\"}}}");
    env.remove("ROUNDHOUSE_OPENAI_API_KEY");
    context.answer(PermissionVerdict.allow("ok"));
    server.enqueue(
        status(400, "{\"error\":{\"message\":\"stream unsupported for key " + KEY + "\"}}"),
        status(200, FakeModelServer.completion("Your key is " + KEY + ".").replace("\"finish_reason\":\"stop\"", "\"finish_reason\":\"tool_calls\"")
            .replace("\"role\":\"assistant\",", "\"role\":\"assistant\",\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"run_command\",\"arguments\":\"{\\\"command\\\": \\\"echo " + KEY + "\\\"}\"}}],")),
        status(429, "{\"error\":{\"message\":\"slow down, " + KEY + "\"}}", "Retry-After", "1"),
        status(401, "{\"error\":{\"message\":\"Incorrect API key provided: " + KEY + "\"}}"));
    java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
    java.io.PrintStream originalErr = System.err;
    Throwable failure;
    System.setErr(new java.io.PrintStream(log, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      failure = org.assertj.core.api.Assertions.catchThrowable(() -> run("show me the key"));
    } finally {
      System.setErr(originalErr);
    }

    assertThat(server.request(0).header("authorization")).isEqualTo("Bearer " + KEY);
    assertThat(context.allText()).doesNotContain(KEY).contains("Your key is [redacted].").contains("echo [redacted]");
    assertThat(context.permissionRequests().get(0).command()).isEqualTo("echo " + KEY);
    assertThat(failure).isInstanceOf(EndpointException.class);
    assertThat(failure.getMessage()).doesNotContain(KEY).endsWith("Incorrect API key provided: [redacted]");
    assertThat(String.join("\n", warnings)).contains("holds an API key").doesNotContain(KEY);
    assertThat(messages(server.request(2)).get(3).path("content").asText()).isEqualTo("[redacted]\n[exit code 0]");
    // The fallback and the retry were logged, without the key.
    assertThat(log.toString(java.nio.charset.StandardCharsets.UTF_8)).contains("did not stream").contains("retrying").doesNotContain(KEY);
  }

  @Test
  void aMissingConfigurationFailsTheTurnWithASentence() {
    env.clear();

    assertThatThrownBy(() -> run("hi"))
        .isInstanceOf(RoundhouseException.class)
        .hasMessageStartingWith("the OpenAI-compatible driver is not configured: no endpoint is configured");
    assertThat(context.events()).isEmpty();
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void theRequestsModelWinsOverTheConfiguredOne() throws Exception {
    server.enqueue(streamText("ok"));
    TurnRequest request = new TurnRequest(7, 42, "web", repo, "hi", "", List.of(), null, "other-model", null, false);

    driver().run(request, context);

    assertThat(server.request(0).json().path("model").asText()).isEqualTo("other-model");
    assertThat(context.events(TurnEvent.SessionStarted.class).get(0).model()).isEqualTo("other-model");
  }

  // authStatus, verify, capabilities

  @Test
  void authStatusIsOkWhenEndpointModelAndKeyAreThere() {
    AuthStatus status = driver().authStatus();

    assertThat(status.ok()).isTrue();
    assertThat(status.detail()).isEqualTo(endpoint() + " at " + server.baseUrl() + ", model 'test-model', key from ROUNDHOUSE_OPENAI_API_KEY");
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void authStatusNamesWhatIsMissing() {
    env.remove("ROUNDHOUSE_OPENAI_MODEL");
    assertThat(driver().authStatus().detail()).startsWith("no model is configured for " + server.baseUrl() + ": set ROUNDHOUSE_OPENAI_MODEL");

    env.put("ROUNDHOUSE_OPENAI_MODEL", "gpt-4.1");
    env.put("ROUNDHOUSE_OPENAI_BASE_URL", "https://openrouter.ai/api/v1");
    env.remove("ROUNDHOUSE_OPENAI_API_KEY");
    assertThat(driver().authStatus()).isEqualTo(AuthStatus.problem(
        "no API key for OpenRouter (https://openrouter.ai/api/v1): set ROUNDHOUSE_OPENAI_API_KEY, or api_key_env in " + home.resolve("openai.json")));

    env.put("ROUNDHOUSE_OPENAI_BASE_URL", "http://localhost:11434/v1");
    assertThat(driver().authStatus()).isEqualTo(AuthStatus.ok("Ollama at http://localhost:11434/v1, model 'gpt-4.1', no key (none needed for a local endpoint)"));
  }

  @Test
  void verifyFindsTheModelInTheEndpointsList() {
    server.enqueue(status(200, models("other", "test-model")));
    OpenAiDriver driver = driver();

    AuthStatus status = driver.verify();

    assertThat(status).isEqualTo(AuthStatus.ok(endpoint() + " answers at " + server.baseUrl() + " and offers model 'test-model'"));
    assertThat(server.request(0).path()).isEqualTo("/v1/models");
    assertThat(driver.capabilities().models()).containsExactly("test-model", "other");
  }

  @Test
  void verifySaysWhenTheModelIsNotOffered() {
    server.enqueue(status(200, models("llama3", "qwen2.5-coder")));

    assertThat(driver().verify()).isEqualTo(AuthStatus.problem(
        "model 'test-model' is not offered by " + endpoint() + " (it offers 2 models, such as llama3, qwen2.5-coder)"));
  }

  @Test
  void verifyReportsARejectedKeyAndWhereItCameFrom() {
    server.enqueue(status(401, "{\"error\":{\"message\":\"Invalid API key\"}}"));

    assertThat(driver().verify()).isEqualTo(AuthStatus.problem(
        endpoint() + " answered 401: Invalid API key (the key comes from ROUNDHOUSE_OPENAI_API_KEY)"));
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void verifyReportsAnEndpointThatIsNotListening() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    env.put("ROUNDHOUSE_OPENAI_BASE_URL", "http://127.0.0.1:" + port + "/v1");

    assertThat(driver().verify()).isEqualTo(AuthStatus.problem("cannot connect to http://127.0.0.1:" + port + "/v1: connection refused"));
  }

  @Test
  void verifyFallsBackToAOneTokenCompletionWithoutAModelList() {
    server.enqueue(status(404, "404 page not found"), status(200, FakeModelServer.completion("O")));

    AuthStatus status = driver().verify();

    assertThat(status).isEqualTo(AuthStatus.ok(endpoint() + " answers at " + server.baseUrl() + " (model 'test-model' answered a one-token test)"));
    JsonNode ping = server.request(1).json();
    assertThat(ping.path("max_tokens").asInt()).isEqualTo(1);
    assertThat(ping.path("model").asText()).isEqualTo("test-model");
  }

  @Test
  void verifySuggestsV1WhenTheBaseUrlLacksIt() {
    env.put("ROUNDHOUSE_OPENAI_BASE_URL", server.baseUrl().replace("/v1", ""));
    server.enqueue(status(404, "404 page not found"), status(404, "404 page not found"), status(404, "404 page not found"));

    AuthStatus status = driver().verify();

    assertThat(status.ok()).isFalse();
    assertThat(status.detail()).endsWith("OpenAI-compatible servers usually answer under /v1, such as " + server.baseUrl());
  }

  @Test
  void capabilitiesAreData() {
    DriverCapabilities capabilities = driver().capabilities();

    assertThat(driver().id()).isEqualTo("openai");
    assertThat(capabilities.displayName()).isEqualTo("OpenAI-compatible");
    assertThat(capabilities.models()).containsExactly("test-model");
    assertThat(capabilities.permissionModes()).isEmpty();
    assertThat(capabilities.supportsAsks()).isFalse();
    assertThat(capabilities.reportsCost()).isFalse();
    assertThat(capabilities.supportsResume()).as("continues the task's conversation from the transcript").isTrue();
    assertThat(capabilities.supportsLinger()).isFalse();
    assertThat(capabilities.readOnlyTools()).containsExactlyInAnyOrder("read_file", "list_files", "search");
  }
}
