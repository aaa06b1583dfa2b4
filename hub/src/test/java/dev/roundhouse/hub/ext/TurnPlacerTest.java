package dev.roundhouse.hub.ext;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.spi.ExtensionContext;
import dev.roundhouse.hub.spi.HubExtension;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.spi.TurnPlace;
import dev.roundhouse.hub.spi.TurnRequest;
import dev.roundhouse.hub.testing.EventRecorder;
import dev.roundhouse.hub.testing.HttpTestClient;
import dev.roundhouse.hub.testing.TestDriver;
import dev.roundhouse.hub.testing.TestHub;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Modules place a task's turns: the folder the driver runs in and the variables its processes get. */
class TurnPlacerTest {
  /** Moves tasks tagged {@code own} into a folder of their own; adds PORT to every task's turns. */
  static final class Places implements HubExtension {
    final AtomicReference<ExtensionContext> context = new AtomicReference<>();
    final Path root;

    Places(Path root) {
      this.root = root;
    }

    @Override
    public String name() {
      return "places";
    }

    @Override
    public void start(ExtensionContext context) {
      this.context.set(context);
      context.placeTurns((Project project, Task task, TurnPlace place) -> {
        if (task.tags().contains("broken")) {
          throw new RoundhouseException.Conflict("branch roundhouse/" + task.id() + " was deleted");
        }
        if (!task.tags().contains("own")) {
          return place;
        }
        Path folder = root.resolve(String.valueOf(task.id()));
        try {
          Files.createDirectories(folder);
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
        return place.in(folder).withNote("task " + task.id() + " works in its own folder");
      });
      context.placeTurns((project, task, place) -> place.withVariable("PORT", "4100"));
    }
  }

  private final List<TurnRequest> requests = new java.util.concurrent.CopyOnWriteArrayList<>();
  private TestHub hub;
  private HttpTestClient http;
  private EventRecorder events;
  private Places places;

  @BeforeEach
  void open() throws Exception {
    TestDriver driver = new TestDriver("probe", false, (request, context) -> {
      requests.add(request);
      context.emit(new TurnEvent.Result("stop", "done"));
    });
    Path root = Files.createTempDirectory("roundhouse-places");
    places = new Places(root);
    hub = TestHub.withExtensions(config -> config, List.of(driver), List.of(places));
    http = hub.http();
    events = new EventRecorder(hub.hub());
    http.op("project_create", map("name", "home", "path", hub.folder("home"), "default_agent", "probe"));
  }

  @AfterEach
  void close() {
    events.close();
    hub.close();
  }

  private long task(List<String> tags) {
    return http.op("task_create", map("project", "home", "title", "Work", "tags", tags)).get("id").asLong();
  }

  @Test
  void aPlacedTaskRunsInItsFolderWithTheVariablesAndTheTranscriptSaysWhere() {
    long task = task(List.of("own"));
    http.op("turn_start", map("task", task, "message", "go"));
    JsonNode placed = events.await("turn.placed", task).data();
    assertThat(events.await("turn.ended", task).data().get("status").asText()).isEqualTo("completed");

    TurnRequest request = requests.getFirst();
    assertThat(request.workingDirectory()).isEqualTo(places.root.resolve(String.valueOf(task)));
    assertThat(request.environment()).isEqualTo(Map.of("PORT", "4100"));
    assertThat(placed.get("working_directory").asText()).isEqualTo(places.root.resolve(String.valueOf(task)).toString());
    assertThat(placed.get("notes").get(0).asText()).isEqualTo("task " + task + " works in its own folder");
    assertThat(places.context.get().placeOf(task).workingDirectory()).isEqualTo(request.workingDirectory());
  }

  @Test
  void anUnplacedTaskRunsInTheProjectFolderAndNoPlaceIsRecorded() {
    long task = task(List.of());
    http.op("turn_start", map("task", task, "message", "go"));
    assertThat(events.await("turn.ended", task).data().get("status").asText()).isEqualTo("completed");

    assertThat(requests.getFirst().workingDirectory()).isEqualTo(Path.of(hub.folder("home")).toAbsolutePath());
    assertThat(requests.getFirst().environment()).containsEntry("PORT", "4100");
    assertThat(events.types()).doesNotContain("turn.placed");
  }

  @Test
  void aPlacerThatFailsFailsTheTurnWithItsSentenceAndTheDriverNeverRuns() {
    long task = task(List.of("broken"));
    http.op("turn_start", map("task", task, "message", "go"));
    JsonNode ended = events.await("turn.ended", task).data();

    assertThat(ended.get("status").asText()).isEqualTo("failed");
    assertThat(ended.get("reason").asText()).isEqualTo("branch roundhouse/" + task + " was deleted");
    assertThat(requests).isEmpty();
    assertThatThrownBy(() -> places.context.get().placeOf(task)).hasMessage("branch roundhouse/" + task + " was deleted");
    assertThatThrownBy(() -> places.context.get().placeOf(9999)).isInstanceOf(RoundhouseException.NotFound.class);
  }
}
