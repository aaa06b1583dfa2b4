package dev.roundhouse.hub.agenttools;

import dev.roundhouse.hub.api.AgentToolsApi;
import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.ops.OperationDescriptor;
import dev.roundhouse.hub.testing.EventRecorder;
import dev.roundhouse.hub.testing.TestDriver;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.spi.TurnContext;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The agents' tools on a real hub, called through the registry as the agent of a task. */
class AgentToolsTest {
  private final CountDownLatch release = new CountDownLatch(1);
  private final CompletableFuture<TurnContext> running = new CompletableFuture<>();
  private final CompletableFuture<Object> asked = new CompletableFuture<>();
  private volatile String question;

  private TestHub hub;
  private EventRecorder events;
  private long web;
  private long task;

  @BeforeEach
  void start() {
    TestDriver driver = new TestDriver("hold", false, (request, context) -> {
      running.complete(context);
      if (question != null) {
        try {
          asked.complete(context.callTool("ask_user", Json.tree(map("question", question, "options", List.of("yes", "no")))));
        } catch (RuntimeException e) {
          asked.complete(e);
        }
      }
      release.await(20, TimeUnit.SECONDS);
    });
    hub = TestHub.withDrivers(c -> c, List.of(driver));
    events = new EventRecorder(hub.hub());
    web = hub.http().op("project_create", map("name", "Web", "path", hub.folder("web"), "default_agent", "hold")).get("id").asLong();
    hub.http().op("project_create", map("name", "api", "path", hub.folder("api")));
    task = hub.http().op("task_create", map("project", "Web", "title", "Fix login")).get("id").asLong();
  }

  @AfterEach
  void stop() {
    release.countDown();
    events.close();
    hub.close();
  }

  private JsonNode call(String tool, Actor actor, Map<String, ?> input) {
    return hub.hub().operations().invoke(tool, actor, Json.tree(input));
  }

  @Test
  void suggestTaskFilesASuggestionByCaseInsensitiveNameAsTheAgent() {
    JsonNode answer = call("suggest_task", Actor.agent(task), map("project", "web", "title", "Add a logout button"));
    assertThat(answer.path("summary").asText()).startsWith("suggest_task filed task").contains("project Web");
    assertThat(answer.at("/task/suggested").asBoolean()).isTrue();
    assertThat(answer.at("/task/created_by").asText()).isEqualTo("agent:" + task);
    assertThat(answer.at("/task/project_id").asLong()).isEqualTo(web);

    JsonNode byClient = call("suggest_task", Actor.client("cursor"), map("project", String.valueOf(web), "title", "Docs"));
    assertThat(byClient.at("/task/suggested").asBoolean()).as("suggest_task always suggests").isTrue();
  }

  @Test
  void suggestTaskRefusesAnUnknownProjectListingTheCandidates() {
    int before = hub.hub().board().tasks(new dev.roundhouse.hub.api.BoardApi.TaskListQuery(null, null, null, null, null, null)).tasks().size();
    assertThatThrownBy(() -> call("suggest_task", Actor.agent(task), map("project", "wbe", "title", "Lost")))
        .isInstanceOf(RoundhouseException.NotFound.class)
        .hasMessageStartingWith("suggest_task: no project 'wbe'")
        .hasMessageContaining("Web (" + web + ")").hasMessageContaining("api (");
    assertThat(hub.hub().board().tasks(new dev.roundhouse.hub.api.BoardApi.TaskListQuery(null, null, null, null, null, null)).tasks())
        .as("nothing filed anywhere").hasSize(before);
  }

  @Test
  void updateTaskIsRefusedWhileATurnRunsAndAnEditToAnotherTaskIsRecordedAndRevertable() throws Exception {
    long other = hub.http().op("task_create", map("project", "Web", "title", "Old title")).get("id").asLong();
    hub.http().op("turn_start", map("task", task, "message", "go"));
    running.get(20, TimeUnit.SECONDS);

    assertThatThrownBy(() -> call("update_task", Actor.agent(task), map("task", task, "status", "done")))
        .isInstanceOf(RoundhouseException.Conflict.class)
        .hasMessageStartingWith("update_task: task " + task + " has turn");

    JsonNode edited = call("update_task", Actor.agent(task), map("task", other, "title", "New title"));
    assertThat(edited.path("summary").asText()).contains("changed title of task " + other).contains("revert");
    JsonNode edits = hub.http().op("task_edits", map("task", other)).path("edits");
    assertThat(edits.get(0).path("actor").asText()).isEqualTo("agent:" + task);
    hub.http().op("task_revert_edit", map("edit", edits.get(0).path("id").asLong()));
    assertThat(hub.hub().board().task(other).title()).isEqualTo("Old title");
  }

  @Test
  void moveTaskKeepsEdgesWhoseEndsBothMoveAndNamesTheDroppedOnes() {
    long a = hub.http().op("task_create", map("project", "Web", "title", "a")).get("id").asLong();
    long b = hub.http().op("task_create", map("project", "Web", "title", "b", "blocked_by", List.of(a))).get("id").asLong();
    long c = hub.http().op("task_create", map("project", "Web", "title", "c", "blocked_by", List.of(a))).get("id").asLong();

    JsonNode moved = call("move_task", Actor.agent(task), map("tasks", List.of(a, b), "project", "api"));
    assertThat(moved.path("summary").asText()).contains("task " + c + " no longer waits on task " + a);
    assertThat(moved.path("dropped_edges")).hasSize(1);
    assertThat(hub.hub().board().task(b).blockedBy()).containsExactly(a);
    assertThat(hub.hub().board().task(c).blockedBy()).isEmpty();
  }

  @Test
  void withdrawSuggestionNeedsAReasonAndKeepsTheCardVisibleAsWithdrawn() {
    long suggestion = call("suggest_task", Actor.agent(task), map("project", "Web", "title", "Maybe")).at("/task/id").asLong();
    assertThatThrownBy(() -> call("withdraw_suggestion", Actor.agent(task), map("task", suggestion, "reason", " ")))
        .hasMessageContaining("reason must not be empty");
    assertThatThrownBy(() -> call("withdraw_suggestion", Actor.agent(999), map("task", suggestion, "reason", "mine")))
        .isInstanceOf(RoundhouseException.Forbidden.class);

    JsonNode withdrawn = call("withdraw_suggestion", Actor.agent(task), map("task", suggestion, "reason", "already done elsewhere"));
    assertThat(withdrawn.path("summary").asText()).contains("withdrew suggestion " + suggestion);
    var card = hub.hub().board().task(suggestion);
    assertThat(card.status().wireName()).isEqualTo("cancelled");
    assertThat(card.tags()).contains("withdrawn");
    assertThat(card.description()).contains("already done elsewhere");
    assertThat(hub.hub().board().board("Web").columns().stream().flatMap(col -> col.tasks().stream()))
        .as("still on the board").anyMatch(t -> t.id() == suggestion);
  }

  @Test
  void askUserParksTheTurnUntilTheUserAnswers() throws Exception {
    question = "Ship it?";
    hub.http().op("turn_start", map("task", task, "message", "go"));
    Event opened = events.await("decision.opened", task);
    assertThat(asked).isNotDone();
    long decision = opened.data().at("/decision/id").asLong();
    assertThat(opened.data().at("/decision/kind").asText()).isEqualTo("question");

    hub.http().op("decision_answer", map("decision", decision, "answer", "yes"));
    JsonNode answer = (JsonNode) asked.get(20, TimeUnit.SECONDS);
    assertThat(answer.path("answer").asText()).isEqualTo("yes");
    assertThat(answer.path("summary").asText()).startsWith("ask_user: user answered");
  }

  @Test
  void askUserOutsideATurnIsRefusedWithASentence() {
    assertThatThrownBy(() -> call("ask_user", Actor.agent(task), map("question", "Anyone?")))
        .isInstanceOf(RoundhouseException.Conflict.class).hasMessageStartingWith("ask_user: task " + task + " has no running turn");
    assertThatThrownBy(() -> call("ask_user", Actor.USER, map("question", "Me?")))
        .isInstanceOf(RoundhouseException.Forbidden.class).hasMessageStartingWith("ask_user:");
  }

  @Test
  void inProcessDriversAreOfferedExactlyTheAgentsTools() throws Exception {
    hub.http().op("turn_start", map("task", task, "message", "go"));
    TurnContext context = running.get(20, TimeUnit.SECONDS);
    assertThat(context.tools()).extracting(OperationDescriptor::name).containsExactlyInAnyOrderElementsOf(AgentToolsApi.NAMES);
    assertThat(context.callTool("list_projects", null).path("summary").asText()).contains("Web (" + web + ")");
  }

  @Test
  void emptyListsAnswerWithASentenceNamingTheTool() {
    JsonNode tags = call("list_tags", Actor.agent(task), map());
    assertThat(tags.path("summary").asText()).isEqualTo("list_tags found no tags");
    JsonNode tasks = call("list_tasks", Actor.agent(task), map("project", "api"));
    assertThat(tasks.path("summary").asText()).isEqualTo("list_tasks found no tasks for project api");
  }
}
