package dev.roundhouse.hub.ext;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.TaskStatus;
import dev.roundhouse.hub.spi.ExtensionContext;
import dev.roundhouse.hub.spi.HubExtension;
import dev.roundhouse.hub.testing.HttpTestClient;
import dev.roundhouse.hub.testing.TestHub;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A module vetoes moving tasks between columns: an agent's "done" on a task with stranded work is refused. */
class TaskStatusGuardTest {
  /** Refuses agents' moves to done of tasks tagged {@code stranded}; records every question it was asked. */
  static final class Guard implements HubExtension {
    final List<String> asked = new CopyOnWriteArrayList<>();

    @Override
    public String name() {
      return "guard";
    }

    @Override
    public void start(ExtensionContext context) {
      context.guardStatusChanges((actor, project, task, to) -> {
        asked.add(actor + " " + task.id() + " " + task.status().wireName() + "->" + to.wireName());
        if (actor.isAgent() && to == TaskStatus.DONE && task.tags().contains("stranded")) {
          throw new RoundhouseException.Conflict("task " + task.id() + " has uncommitted changes: src/a.txt");
        }
      });
    }
  }

  private final Guard guard = new Guard();
  private TestHub hub;
  private HttpTestClient http;
  private long stranded;
  private long clean;

  @BeforeEach
  void open() {
    hub = TestHub.withExtensions(config -> config, List.of(), List.of(guard));
    http = hub.http();
    http.op("project_create", map("name", "web", "path", hub.folder("web")));
    stranded = http.op("task_create", map("project", "web", "title", "Stranded", "tags", List.of("stranded"))).get("id").asLong();
    clean = http.op("task_create", map("project", "web", "title", "Clean")).get("id").asLong();
  }

  @AfterEach
  void close() {
    hub.close();
  }

  private void asAgent(String operation, Object input) {
    hub.hub().operations().invoke(operation, Actor.agent(99), Json.tree(input));
  }

  @Test
  void anAgentsDoneIsRefusedWithTheGuardsSentenceAndNothingChanges() {
    assertThatThrownBy(() -> asAgent("update_task", map("task", stranded, "status", "done")))
        .isInstanceOf(RoundhouseException.Conflict.class).hasMessageContaining("uncommitted changes: src/a.txt");
    assertThatThrownBy(() -> asAgent("move_task", map("tasks", List.of(clean, stranded), "status", "done")))
        .hasMessageContaining("task " + stranded + " has uncommitted changes");
    assertThat(http.op("task_get", map("task", stranded)).get("status").asText()).isEqualTo("backlog");
    assertThat(http.op("task_get", map("task", clean)).get("status").asText()).isEqualTo("backlog");
  }

  @Test
  void theUserMayStillMarkItDoneAndOtherMovesAreAllowed() {
    asAgent("update_task", map("task", clean, "status", "done"));
    http.op("task_update", map("task", stranded, "status", "done"));

    assertThat(http.op("task_get", map("task", stranded)).get("status").asText()).isEqualTo("done");
    assertThat(guard.asked).contains("agent:99 " + clean + " backlog->done", "user " + stranded + " backlog->done");
  }

  @Test
  void aWriteThatChangesNoStatusAsksNoGuard() {
    http.op("task_update", map("task", stranded, "title", "Renamed"));
    http.op("task_update", map("task", stranded, "status", "backlog"));
    assertThat(guard.asked).isEmpty();
  }
}
