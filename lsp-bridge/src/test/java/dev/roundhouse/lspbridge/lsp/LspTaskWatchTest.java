package dev.roundhouse.lspbridge.lsp;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.testing.TestDriver;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.testing.Waits;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code roundhouse/watchTask}, {@code roundhouse/unwatchTask} and {@code roundhouse/transcript} against a
 * real hub, driven by LSP4J's client: a task's live transcript with its transient text deltas, resuming
 * after a sequence number, and paged reads.
 */
class LspTaskWatchTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  private final CountDownLatch release = new CountDownLatch(1);
  private TestHub hub;
  private BridgeFixture bridge;
  private BridgeFixture.Client client;

  @BeforeEach
  void start() throws Exception {
    // A short keep-alive: the hub notices a closed viewer at its next write.
    hub = TestHub.start(c -> c, Duration.ofMillis(200), List.of(new TestDriver("talker", false, (request, context) -> {
      context.emit(new TurnEvent.TextDelta("Hel"));
      context.emit(new TurnEvent.TextDelta("lo"));
      context.emit(new TurnEvent.AssistantMessage("Hello"));
      if (request.message().contains("wait")) {
        release.await(WAIT.toSeconds(), TimeUnit.SECONDS);
      }
      context.emit(new TurnEvent.AssistantMessage("Bye"));
    })));
    hub.http().op("project_create", map("name", "web", "path", hub.folder("web"), "default_agent", "talker"));
    bridge = BridgeFixture.start(hub);
    client = bridge.client(new RecordingClient());
    client.initialize(true);
  }

  @AfterEach
  void stop() throws Exception {
    try {
      release.countDown();
      client.server().shutdown().get(10, TimeUnit.SECONDS);
      client.server().exit();
      bridge.close();
    } finally {
      hub.close();
    }
  }

  private JsonObject request(String method, String json) throws Exception {
    JsonObject params = JsonParser.parseString(json).getAsJsonObject();
    JsonElement answer = switch (method) {
      case "watchTask" -> client.server().watchTask(params).get(10, TimeUnit.SECONDS);
      case "unwatchTask" -> client.server().unwatchTask(params).get(10, TimeUnit.SECONDS);
      case "transcript" -> client.server().transcript(params).get(10, TimeUnit.SECONDS);
      default -> throw new IllegalArgumentException(method);
    };
    return answer.getAsJsonObject();
  }

  private long newTask(String title) {
    return hub.http().op("task_create", map("project", "web", "title", title)).get("id").asLong();
  }

  private static ResponseError errorOf(Throwable thrown) {
    Throwable cause = thrown instanceof ExecutionException ? thrown.getCause() : thrown;
    assertThat(cause).isInstanceOf(ResponseErrorException.class);
    return ((ResponseErrorException) cause).getResponseError();
  }

  private List<JsonObject> eventsOf(long task) {
    return client.local().taskEvents.stream().filter(e -> e.get("task_id").getAsLong() == task).toList();
  }

  private boolean ended(long task) {
    return eventsOf(task).stream().anyMatch(e -> e.get("type").getAsString().equals("turn.ended"));
  }

  @Test
  void watchTaskStreamsTheTurnLiveWithTextDeltasAndStoredEventsInSeqOrder() throws Exception {
    long task = newTask("greet");
    JsonObject watching = request("watchTask", "{\"task\":" + task + "}");
    assertThat(watching.get("watching").getAsBoolean()).isTrue();
    assertThat(watching.get("task").getAsLong()).isEqualTo(task);
    assertThat(watching.get("after").getAsLong()).as("a new task's generation starts at 0").isZero();

    hub.http().op("turn_start", map("task", task, "message", "hi"));
    Waits.until("turn.ended of the watched task", WAIT, () -> ended(task));

    List<JsonObject> events = eventsOf(task);
    List<String> types = events.stream().map(e -> e.get("type").getAsString()).toList();
    assertThat(types).first().isEqualTo("task.created"); // the snapshot of the generation comes first
    assertThat(types).containsSubsequence("turn.started", "turn.text_delta", "turn.text_delta", "turn.message", "turn.ended");
    List<JsonObject> deltas = events.stream().filter(e -> e.get("type").getAsString().equals("turn.text_delta")).toList();
    assertThat(deltas).extracting(e -> e.get("seq").getAsLong()).containsOnly(0L);
    assertThat(deltas).extracting(e -> e.getAsJsonObject("data").get("text").getAsString()).containsExactly("Hel", "lo");
    List<Long> stored = events.stream().map(e -> e.get("seq").getAsLong()).filter(seq -> seq > 0).toList();
    assertThat(stored).isSorted().doesNotHaveDuplicates();
    assertThat(client.local().taskConnections).anySatisfy(c -> {
      assertThat(c.get("task").getAsLong()).isEqualTo(task);
      assertThat(c.get("state").getAsString()).isEqualTo("connected");
    });
  }

  @Test
  void aWatchAfterASeqReplaysOnlyWhatCameLaterThenFollowsLive() throws Exception {
    long task = newTask("greet");
    hub.http().op("turn_start", map("task", task, "message", "hi"));
    Waits.until("first turn done", WAIT, () -> hub.http().op("turn_list", map("task", task)).toString().contains("completed"));
    JsonObject page = request("transcript", "{\"task\":" + task + "}");
    JsonArray entries = page.getAsJsonArray("entries");
    long firstMessage = entries.asList().stream()
        .map(JsonElement::getAsJsonObject)
        .filter(entry -> entry.get("type").getAsString().equals("turn.message"))
        .mapToLong(entry -> entry.get("seq").getAsLong())
        .findFirst().orElse(0);
    assertThat(firstMessage).as("the transcript holds the first message").isPositive();

    // An editor that saw everything up to the first message reconnects with it.
    JsonObject watching = request("watchTask", "{\"task\":" + task + ",\"after\":" + firstMessage + "}");
    assertThat(watching.get("after").getAsLong()).isEqualTo(firstMessage);
    Waits.until("the replay reaches turn.ended", WAIT, () -> ended(task));
    List<JsonObject> replayed = eventsOf(task);
    assertThat(replayed).allSatisfy(e -> assertThat(e.get("seq").getAsLong()).isGreaterThan(firstMessage));
    assertThat(replayed).anySatisfy(e -> assertThat(e.toString()).contains("Bye")).noneSatisfy(e -> assertThat(e.toString()).contains("\"Hello\""));

    // Still watching: the next turn arrives live.
    client.local().taskEvents.clear();
    hub.http().op("turn_start", map("task", task, "message", "again"));
    Waits.until("the second turn live", WAIT, () -> ended(task));
    assertThat(eventsOf(task)).anySatisfy(e -> assertThat(e.get("type").getAsString()).isEqualTo("turn.text_delta"));
  }

  @Test
  void unwatchTaskStopsTheEventsAndClosesTheHubStream() throws Exception {
    long task = newTask("greet");
    Waits.until("the decision relay's stream open", WAIT, () -> hub.hub().events().openStreams() == 1);
    int before = hub.hub().events().openStreams();
    request("watchTask", "{\"task\":" + task + "}");
    assertThat(hub.hub().events().openStreams()).isEqualTo(before + 1);

    JsonObject unwatched = request("unwatchTask", "{\"task\":" + task + "}");
    assertThat(unwatched.get("was_watching").getAsBoolean()).isTrue();
    Waits.until("the task stream closed", WAIT, () -> hub.hub().events().openStreams() == before);
    assertThat(request("unwatchTask", "{\"task\":" + task + "}").get("was_watching").getAsBoolean()).isFalse();

    client.local().taskEvents.clear();
    hub.http().op("turn_start", map("task", task, "message", "hi"));
    // The hub closed the watch's stream above, so nothing of this turn can be on its way.
    Waits.until("turn done", WAIT, () -> hub.http().op("turn_list", map("task", task)).toString().contains("completed"));
    assertThat(client.local().taskEvents).isEmpty();
  }

  @Test
  void watchingAnUnknownTaskOrWithBadParamsIsRefusedNamingWhatWasWrong() {
    assertThatThrownBy(() -> request("watchTask", "{\"task\":4242}")).satisfies(thrown -> {
      ResponseError error = errorOf(thrown);
      assertThat(error.getCode()).isEqualTo(-32803);
      assertThat(error.getMessage()).contains("no task 4242");
    });
    assertThatThrownBy(() -> request("watchTask", "{}")).satisfies(thrown ->
        assertThat(errorOf(thrown).getMessage()).isEqualTo("roundhouse/watchTask: params.task is required: a whole number (a task id)"));
    assertThatThrownBy(() -> request("watchTask", "{\"task\":1,\"after\":\"x\"}")).satisfies(thrown ->
        assertThat(errorOf(thrown).getMessage()).contains("params.after must be a whole number"));
    assertThatThrownBy(() -> request("transcript", "{\"task\":1,\"limit\":-1}")).satisfies(thrown ->
        assertThat(errorOf(thrown).getMessage()).contains("roundhouse/transcript: params.limit"));
  }

  @Test
  void transcriptReadsAGenerationAPageAtATime() throws Exception {
    long task = newTask("greet");
    hub.http().op("turn_start", map("task", task, "message", "hi"));
    Waits.until("turn done", WAIT, () -> hub.http().op("turn_list", map("task", task)).toString().contains("completed"));

    JsonObject first = request("transcript", "{\"task\":" + task + ",\"limit\":2}");
    assertThat(first.getAsJsonArray("entries")).hasSize(2);
    assertThat(first.get("has_more").getAsBoolean()).isTrue();
    long last = first.get("last_seq").getAsLong();
    JsonObject rest = request("transcript", "{\"task\":" + task + ",\"after\":" + last + ",\"limit\":1000}");
    assertThat(rest.get("has_more").getAsBoolean()).isFalse();
    assertThat(rest.getAsJsonArray("entries")).allSatisfy(e -> assertThat(e.getAsJsonObject().get("seq").getAsLong()).isGreaterThan(last));
    assertThat(rest.toString()).contains("turn.ended");
  }

  @Test
  void aWatchSurvivesTheTurnItFollowsAndShutdownClosesEveryWatch() throws Exception {
    long task = newTask("greet");
    request("watchTask", "{\"task\":" + task + "}");
    hub.http().op("turn_start", map("task", task, "message", "wait for me"));
    Waits.until("the first message", WAIT, () -> eventsOf(task).stream().anyMatch(e -> e.toString().contains("\"Hello\"")));
    release.countDown();
    Waits.until("turn.ended", WAIT, () -> ended(task));
    int open = hub.hub().events().openStreams();
    client.server().shutdown().get(10, TimeUnit.SECONDS);
    Waits.until("the watch's stream closed", WAIT, () -> hub.hub().events().openStreams() < open);
  }
}
