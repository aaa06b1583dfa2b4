package dev.roundhouse.hubclient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.roundhouse.hub.api.BoardApi;
import dev.roundhouse.hub.api.TurnApi;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.model.TaskStatus;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.testing.TestDriver;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.testing.Waits;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The typed calls against a real hub on a real socket: each reads the hub's own output records. */
class RemoteHubTest {
  private TestHub hub;
  private RemoteHub client;

  @BeforeEach
  void start() {
    hub = TestHub.withDrivers(c -> c, List.of(new TestDriver("t", false, (request, context) -> context.emit(new TurnEvent.AssistantMessage("done")))));
    HubAddress address = new HubAddress(hub.server().url(), hub.hub().token());
    client = RemoteHub.connect(() -> address, "test", Duration.ofSeconds(10));
  }

  @AfterEach
  void stop() {
    client.close();
    hub.close();
  }

  @Test
  void boardCallsReturnTheHubsRecords() {
    hub.http().op("project_create", java.util.Map.of("name", "web", "path", hub.folder("web"), "default_agent", "t"));

    Project web = client.projectGet("web");
    assertThat(client.projectList()).extracting(Project::name).containsExactly("web");
    Task filed = client.taskCreate(new BoardApi.TaskCreate("web", "Fix the build", null, TaskStatus.TODO, null, List.of("ci"), null, null, null, null, null, null));
    assertThat(filed.projectId()).isEqualTo(web.id());
    assertThat(client.taskGet(filed.id()).tags()).containsExactly("ci");
    Task renamed = client.taskUpdate(new BoardApi.TaskUpdate(filed.id(), "Fix the nightly build", null, null, null, null, null, null, null, null, null, null, null));
    assertThat(renamed.title()).isEqualTo("Fix the nightly build");
    assertThat(client.taskList(new BoardApi.TaskListQuery("web", null, null, null, null, null)).tasks()).extracting(Task::id).containsExactly(filed.id());
  }

  @Test
  void boardWritesAndHistoryReturnTheHubsRecords() {
    Project web = client.projectCreate(new BoardApi.ProjectCreate("web", hub.folder("web"), "t", null));
    Project api = client.projectCreate(new BoardApi.ProjectCreate("api", hub.folder("api"), null, null));
    Task first = client.taskCreate(new BoardApi.TaskCreate("web", "First", null, TaskStatus.TODO, null, null, null, null, null, null, null, null));
    Task second = client.taskCreate(new BoardApi.TaskCreate("web", "Second", null, null, null, null, List.of(first.id()), null, null, null, null, null));

    assertThat(client.projectBoard("web").columns())
        .filteredOn(column -> !column.tasks().isEmpty())
        .extracting(BoardApi.Column::status)
        .containsExactly(TaskStatus.BACKLOG, TaskStatus.TODO);
    BoardApi.TaskMoved moved = client.taskMove(new BoardApi.TaskMove(List.of(second.id()), null, "api"));
    assertThat(moved.tasks()).extracting(Task::projectId).containsExactly(api.id());
    assertThat(moved.droppedEdges()).containsExactly(new BoardApi.DroppedEdge(second.id(), first.id()));
    assertThat(web.defaultAgent()).isEqualTo("t");

    client.taskUpdate(new BoardApi.TaskUpdate(first.id(), "First, renamed", null, null, null, null, null, null, null, null, null, null, null));
    var edit = client.taskEdits(new BoardApi.TaskEditsQuery(first.id(), 10)).edits().getFirst();
    assertThat(edit.field()).isEqualTo("title");
    assertThat(client.taskRevertEdit(edit.id()).title()).isEqualTo("First");
    assertThat(client.taskDelete(first.id())).isEqualTo(new BoardApi.TaskDeleted(first.id(), "First"));
  }

  @Test
  void turnCallsStartATurnAndReadItsTranscript() {
    hub.http().op("project_create", java.util.Map.of("name", "web", "path", hub.folder("web"), "default_agent", "t"));
    Task task = client.taskCreate(new BoardApi.TaskCreate("web", "Say done", null, null, null, null, null, null, null, null, null, null));

    assertThat(client.driverList().drivers()).extracting(TurnApi.DriverInfo::id).containsExactly("t");
    TurnApi.TurnView started = client.turnStart(new TurnApi.TurnStart(task.id(), "go", null, null, null, null));
    assertThat(started.turn().driver()).isEqualTo("t");
    Waits.until("the turn's answer", Duration.ofSeconds(10), () -> client.taskTranscript(new TurnApi.TranscriptQuery(task.id(), null, null, null))
        .entries().stream().anyMatch(e -> e.type().equals("turn.ended")));
    assertThat(client.decisionList(new TurnApi.DecisionQuery(null, task.id(), null, null)).decisions()).isEmpty();
  }

  @Test
  void aHubErrorCarriesTheHubsSentence() {
    assertThatThrownBy(() -> client.taskGet(404))
        .isInstanceOfSatisfying(HubErrorException.class, e -> assertThat(e.status()).isEqualTo(404))
        .hasMessage("no task 404");
  }
}
