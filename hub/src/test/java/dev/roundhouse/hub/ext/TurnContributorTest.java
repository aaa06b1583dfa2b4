package dev.roundhouse.hub.ext;

import dev.roundhouse.hub.api.AgentToolsApi;
import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.ops.Operation;
import dev.roundhouse.hub.ops.OperationAnnotations;
import dev.roundhouse.hub.ops.OperationDescriptor;
import dev.roundhouse.hub.testing.EventRecorder;
import dev.roundhouse.hub.testing.HttpTestClient;
import dev.roundhouse.hub.testing.TestDriver;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.spi.TurnEvent;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import dev.roundhouse.hub.spi.ExtensionContext;
import dev.roundhouse.hub.spi.HubExtension;
import dev.roundhouse.hub.spi.TurnContributor;

/** An extension's turn contributor: its context and tools reach the turns of the tasks it owns, and only those. */
class TurnContributorTest {
  record NoInput() {}

  record Count(int things) {}

  /** Owns tasks tagged {@code things}; adds a line naming the task and its own read operation. */
  static final class ThingsExtension implements HubExtension, TurnContributor {
    @Override
    public String name() {
      return "things";
    }

    @Override
    public void start(ExtensionContext context) {
      context.operations().register(Operation.of("thing_count", "How many things there are.", NoInput.class, Count.class,
          OperationAnnotations.READ, (actor, in) -> new Count(3)));
      context.contributeToTurns(this);
    }

    @Override
    public boolean owns(Project project, Task task) {
      return task.tags().contains("things");
    }

    @Override
    public Set<String> agentTools() {
      return Set.of("thing_count", "no_such_operation");
    }

    @Override
    public String turnContext(Project project, Task task) {
      return "Things context for task " + task.id() + " in " + project.name() + ".";
    }
  }

  /** What each task's turn saw: its context text, its tools, and what calling thing_count gave. */
  record Seen(String context, List<String> tools, String call) {}

  private final Map<Long, Seen> seen = new ConcurrentHashMap<>();
  private TestHub hub;
  private HttpTestClient http;
  private EventRecorder events;

  @BeforeEach
  void open() {
    TestDriver driver = new TestDriver("probe", false, (request, context) -> {
      String call;
      try {
        call = Json.write(context.callTool("thing_count", Json.tree(Map.of())));
      } catch (RoundhouseException e) {
        call = "refused: " + e.getMessage();
      }
      seen.put(request.taskId(), new Seen(request.context(), context.tools().stream().map(OperationDescriptor::name).toList(), call));
      context.emit(new TurnEvent.Result("stop", "done"));
    });
    hub = TestHub.withExtensions(config -> config, List.of(driver), List.of(new ThingsExtension()));
    http = hub.http();
    events = new EventRecorder(hub.hub());
    http.op("project_create", map("name", "home", "path", hub.folder("home"), "default_agent", "probe", "context", "Project notes."));
  }

  @AfterEach
  void close() {
    events.close();
    hub.close();
  }

  private long runTurn(String title, List<String> tags) {
    long task = http.op("task_create", map("project", "home", "title", title, "tags", tags)).get("id").asLong();
    http.op("turn_start", map("task", task, "message", "go"));
    JsonNode ended = events.await("turn.ended", task).data();
    assertThat(ended.get("status").asText()).isEqualTo("completed");
    return task;
  }

  @Test
  void anOwnedTasksTurnGetsTheOwnersContextAfterTheTaskAndItsTools() {
    long task = runTurn("Count things", List.of("things"));

    Seen turn = seen.get(task);
    assertThat(turn.context()).isEqualTo("Project notes.\n\nTask #" + task + ": Count things\n\nThings context for task " + task + " in home.");
    assertThat(turn.tools()).containsAll(AgentToolsApi.NAMES).contains("thing_count").doesNotContain("no_such_operation", "task_delete");
    assertThat(turn.call()).isEqualTo("{\"things\":3}");
    assertThat(hub.hub().runner().agentTools(task)).contains("thing_count").containsAll(AgentToolsApi.NAMES);
  }

  @Test
  void anotherTasksTurnGetsNeitherTheContextNorTheTools() {
    long task = runTurn("Fix the roof", List.of());

    Seen turn = seen.get(task);
    assertThat(turn.context()).isEqualTo("Project notes.\n\nTask #" + task + ": Fix the roof");
    assertThat(turn.tools()).containsExactlyInAnyOrderElementsOf(AgentToolsApi.NAMES);
    assertThat(turn.call()).startsWith("refused: no tool named 'thing_count' is offered to agents");
    assertThat(hub.hub().runner().agentTools(task)).isEqualTo(AgentToolsApi.NAMES);
  }
}
