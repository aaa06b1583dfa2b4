package dev.roundhouse.lspbridge.lsp;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.roundhouse.hub.spi.PermissionRequest;
import dev.roundhouse.hub.spi.PermissionVerdict;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.testing.TestDriver;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.testing.Waits;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.InitializeResult;
import org.eclipse.lsp4j.MessageActionItem;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.WorkDoneProgressBegin;
import org.eclipse.lsp4j.WorkDoneProgressEnd;
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The bridge against a real hub (SQLite, HTTP on a free port), driven by LSP4J's own client side. */
class LspBridgeTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  private final List<PermissionVerdict> verdicts = new CopyOnWriteArrayList<>();
  private TestHub hub;
  private BridgeFixture bridge;
  private BridgeFixture.Client client;

  @BeforeEach
  void start() {
    hub = TestHub.withDrivers(c -> c, List.of(new TestDriver("gate", false, (request, context) -> {
      PermissionVerdict verdict = context.requestPermission(
          new PermissionRequest("c1", "Bash", JsonNodeFactory.instance.objectNode().put("command", "make deploy"), "Run: make deploy", "make deploy"));
      verdicts.add(verdict);
      context.emit(new TurnEvent.AssistantMessage(verdict.allowed() ? "deployed" : "not allowed"));
    })));
    hub.http().op("project_create", map("name", "web", "path", hub.folder("web"), "default_agent", "gate"));
    bridge = BridgeFixture.start(hub);
    client = bridge.client(new RecordingClient());
  }

  @AfterEach
  void stop() throws Exception {
    try {
      client.server().shutdown().get(10, TimeUnit.SECONDS);
      client.server().exit();
      assertThat(bridge.exit.get(10, TimeUnit.SECONDS)).as("exit status after shutdown").isZero();
      bridge.close();
    } finally {
      hub.close();
    }
  }

  private JsonObject call(String name, Object arguments) throws Exception {
    JsonObject params = new JsonObject();
    params.addProperty("name", name);
    params.add("arguments", JsonParser.parseString(dev.roundhouse.hub.core.Json.write(arguments)));
    return client.server().call(params).get(10, TimeUnit.SECONDS).getAsJsonObject();
  }

  private static ResponseError errorOf(Throwable thrown) {
    Throwable cause = thrown instanceof ExecutionException ? thrown.getCause() : thrown;
    assertThat(cause).isInstanceOf(ResponseErrorException.class);
    return ((ResponseErrorException) cause).getResponseError();
  }

  private static JsonObject params(String json) {
    return JsonParser.parseString(json).getAsJsonObject();
  }

  @Test
  void initializeAdvertisesTheRoundhouseExtensionWithItsVersion() throws Exception {
    InitializeResult result = client.initialize(true);
    JsonObject roundhouse = ((JsonObject) result.getCapabilities().getExperimental()).getAsJsonObject("roundhouse");
    assertThat(roundhouse.get("version").getAsInt()).isEqualTo(RoundhouseProtocol.VERSION);
    assertThat(roundhouse.getAsJsonArray("requests").toString()).contains("roundhouse/call", "roundhouse/subscribe", "roundhouse/answerDecision");
    assertThat(roundhouse.getAsJsonArray("notifications").toString()).contains("roundhouse/event", "roundhouse/decision");
    assertThat(result.getServerInfo().getName()).isEqualTo("roundhouse");
  }

  @Test
  void callRunsAnyOperationAndTheReadsAnswerWithTheHubsJson() throws Exception {
    client.initialize(true);
    JsonObject task = call("task_create", map("project", "web", "title", "Fix login"));
    long id = task.get("id").getAsLong();
    assertThat(task.get("title").getAsString()).isEqualTo("Fix login");

    JsonObject read = client.server().task(params("{\"task\":" + id + "}")).get(10, TimeUnit.SECONDS).getAsJsonObject();
    assertThat(read.get("title").getAsString()).isEqualTo("Fix login");
    JsonElement board = client.server().board(params("{\"project\":\"web\"}")).get(10, TimeUnit.SECONDS);
    assertThat(board.toString()).contains("Fix login");
    JsonElement operations = client.server().operations(null).get(10, TimeUnit.SECONDS);
    assertThat(operations.toString()).contains("task_create", "decision_answer");
  }

  @Test
  void hubErrorsBecomeResponseErrorsWithTheHubsSentence() throws Exception {
    client.initialize(true);
    assertThatThrownBy(() -> call("task_get", map("task", 4242)))
        .satisfies(thrown -> {
          ResponseError error = errorOf(thrown);
          assertThat(error.getCode()).isEqualTo(-32803);
          assertThat(error.getMessage()).contains("no task 4242");
          assertThat(error.getData().toString()).contains("not_found", "404");
        });
    assertThatThrownBy(() -> call("task_create", map("project", "web")))
        .satisfies(thrown -> {
          ResponseError error = errorOf(thrown);
          assertThat(error.getCode()).isEqualTo(-32602);
          assertThat(error.getMessage()).contains("title");
        });
    assertThatThrownBy(() -> call("no_such_operation", map()))
        .satisfies(thrown -> assertThat(errorOf(thrown).getCode()).isEqualTo(-32602));
  }

  @Test
  void malformedParamsAreRefusedNamingTheField() throws Exception {
    client.initialize(true);
    assertThatThrownBy(() -> client.server().board(params("{}")).get(10, TimeUnit.SECONDS))
        .satisfies(thrown -> {
          ResponseError error = errorOf(thrown);
          assertThat(error.getCode()).isEqualTo(-32602);
          assertThat(error.getMessage()).isEqualTo("roundhouse/board: params.project is required: a string (a project id or name)");
        });
    assertThatThrownBy(() -> client.server().task(params("{\"task\":\"seven\"}")).get(10, TimeUnit.SECONDS))
        .satisfies(thrown -> assertThat(errorOf(thrown).getMessage()).contains("params.task must be a whole number"));
    assertThatThrownBy(() -> client.server().call(params("{\"name\":\"task_get\",\"arguments\":[1]}")).get(10, TimeUnit.SECONDS))
        .satisfies(thrown -> assertThat(errorOf(thrown).getMessage()).contains("params.arguments must be an object"));
    assertThatThrownBy(() -> client.server().subscribe(params("{\"after\":-3}")).get(10, TimeUnit.SECONDS))
        .satisfies(thrown -> assertThat(errorOf(thrown).getMessage()).contains("params.after must be a whole number ≥ 0"));
    assertThatThrownBy(() -> client.server().call(JsonParser.parseString("[\"task_get\"]")).get(10, TimeUnit.SECONDS))
        .satisfies(thrown -> assertThat(errorOf(thrown).getMessage()).contains("roundhouse/call: params must be an object"));
    // still serving
    assertThat(call("project_list", map()).toString()).contains("web");
  }

  @Test
  void subscribePushesEventsInOrderWithSequenceNumbersAndResumesAfterOne() throws Exception {
    client.initialize(true);
    RecordingClient local = client.local();
    client.server().subscribe(params("{\"after\":0,\"types\":[\"task.\"]}")).get(10, TimeUnit.SECONDS);
    for (String title : List.of("one", "two", "three")) {
      call("task_create", map("project", "web", "title", title));
    }
    Waits.until("three task events", WAIT, () -> local.events.size() >= 3);
    List<Long> seqs = local.events.stream().map(e -> e.get("seq").getAsLong()).toList();
    assertThat(seqs).isSorted().doesNotHaveDuplicates();
    assertThat(local.events).extracting(e -> e.get("type").getAsString()).containsOnly("task.created");
    assertThat(local.events).extracting(e -> e.getAsJsonObject("data").getAsJsonObject("task").get("title").getAsString())
        .containsExactly("one", "two", "three");

    // A client that reconnects with the last seq it saw gets only what came after.
    long afterFirst = seqs.getFirst();
    local.events.clear();
    client.server().subscribe(params("{\"after\":" + afterFirst + ",\"types\":[\"task.created\"]}")).get(10, TimeUnit.SECONDS);
    Waits.until("the two later events replayed", WAIT, () -> local.events.size() >= 2);
    // A marker filed afterwards arrives after anything else the replay would send: no sleeping needed.
    long marker = call("task_create", map("project", "web", "title", "marker")).get("id").getAsLong();
    Waits.until("the marker", WAIT, () -> local.events.stream()
        .anyMatch(e -> e.getAsJsonObject("data").getAsJsonObject("task").get("id").getAsLong() == marker));
    assertThat(local.events).extracting(e -> e.get("seq").getAsLong()).hasSize(3).startsWith(seqs.get(1), seqs.get(2));
    assertThat(local.connections).anySatisfy(c -> assertThat(c.get("state").getAsString()).isEqualTo("connected"));
  }

  @Test
  void aPermissionDecisionArrivesAsRoundhouseDecisionAndItsAnswerLetsTheTurnContinue() throws Exception {
    client.initialize(true);
    RecordingClient local = client.local();
    client.server().subscribe(params("{\"types\":[\"turn.\"]}")).get(10, TimeUnit.SECONDS);
    long task = call("task_create", map("project", "web", "title", "deploy")).get("id").getAsLong();
    Waits.until("subscription connected", WAIT, () -> !local.connections.isEmpty());
    call("turn_start", map("task", task, "message", "deploy it"));

    Waits.until("a roundhouse/decision", WAIT, () -> !local.decisions.isEmpty());
    JsonObject decision = local.decisions.getFirst();
    assertThat(decision.get("task_id").getAsLong()).isEqualTo(task);
    assertThat(decision.getAsJsonArray("options").toString()).contains("allow_once", "deny");
    assertThat(local.prompts).isEmpty();

    JsonObject answered = client.server()
        .answerDecision(params("{\"decision\":" + decision.get("id").getAsLong() + ",\"answer\":\"allow_once\"}"))
        .get(10, TimeUnit.SECONDS).getAsJsonObject();
    assertThat(answered.get("status").getAsString()).isEqualTo("answered");
    Waits.until("turn ended", WAIT, () -> local.events.stream().anyMatch(e -> e.get("type").getAsString().equals("turn.ended")));
    assertThat(verdicts).extracting(PermissionVerdict::allowed).containsExactly(true);
    assertThat(local.events).anySatisfy(e -> assertThat(e.toString()).contains("deployed"));
    Waits.until("roundhouse/decisionClosed", WAIT, () -> !local.closedDecisions.isEmpty());
    assertThat(local.closedDecisions.getFirst().get("answer").getAsString()).isEqualTo("allow_once");
    assertThat(local.decisions).hasSize(1);
  }

  @Test
  void aPlainClientGetsShowMessageRequestAndTheChosenButtonIsTheAnswer() throws Exception {
    RecordingClient local = client.local();
    local.promptAnswer = prompt -> new MessageActionItem("Allow once");
    client.initialize(false);
    long task = call("task_create", map("project", "web", "title", "deploy")).get("id").getAsLong();
    Waits.until("the decision follower connected", WAIT, () -> hub.hub().events().openStreams() >= 1);
    call("turn_start", map("task", task, "message", "deploy it"));

    Waits.until("the turn got its verdict", WAIT, () -> !verdicts.isEmpty());
    assertThat(verdicts.getFirst().allowed()).isTrue();
    assertThat(local.prompts).singleElement().satisfies(prompt -> {
      assertThat(prompt.getType()).isEqualTo(MessageType.Warning);
      assertThat(prompt.getMessage()).contains("task #" + task);
      assertThat(prompt.getActions()).extracting(MessageActionItem::getTitle).containsExactly("Allow once", "Always allow", "Deny");
    });
    assertThat(local.decisions).isEmpty();
  }

  @Test
  void aDecisionPendingBeforeTheClientAttachedIsOfferedOnce() throws Exception {
    long task = hub.http().op("task_create", map("project", "web", "title", "deploy")).get("id").asLong();
    hub.http().op("turn_start", map("task", task, "message", "deploy it"));
    Waits.until("decision pending", WAIT, () -> hub.http().op("decision_list", map()).get("pending").asInt() == 1);
    RecordingClient local = client.local();
    client.initialize(true);
    Waits.until("a roundhouse/decision", WAIT, () -> !local.decisions.isEmpty());
    client.server().answerDecision(params("{\"decision\":" + local.decisions.getFirst().get("id").getAsLong() + ",\"answer\":\"deny\",\"message\":\"not today\"}"))
        .get(10, TimeUnit.SECONDS);
    Waits.until("the turn got its verdict", WAIT, () -> !verdicts.isEmpty());
    assertThat(verdicts.getFirst().allowed()).isFalse();
    // decisionClosed follows the decision's events in order, so a second offer would have come before it.
    Waits.until("roundhouse/decisionClosed", WAIT, () -> !local.closedDecisions.isEmpty());
    assertThat(local.decisions).hasSize(1);
  }

  @Test
  void aCallReportsWorkDoneProgressWhenItTakesLongerThanTheDelay() throws Exception {
    client.initialize(true); // progress delay is zero in tests
    call("project_list", map());
    RecordingClient local = client.local();
    Waits.until("progress end", WAIT, () -> local.progress.stream().anyMatch(p -> p.getValue().getLeft() instanceof WorkDoneProgressEnd));
    assertThat(local.progressCreated).hasSize(1);
    assertThat(local.progress).first().satisfies(p -> {
      assertThat(p.getValue().getLeft()).isInstanceOf(WorkDoneProgressBegin.class);
      assertThat(((WorkDoneProgressBegin) p.getValue().getLeft()).getTitle()).isEqualTo("Roundhouse: project_list");
    });
  }
}
