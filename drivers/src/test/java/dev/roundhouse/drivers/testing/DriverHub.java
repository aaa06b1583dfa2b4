package dev.roundhouse.drivers.testing;

import static dev.roundhouse.hub.testing.HttpTestClient.map;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.http.HttpMount;
import dev.roundhouse.hub.testing.EventRecorder;
import dev.roundhouse.hub.testing.HttpTestClient;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.spi.AgentDriver;
import dev.roundhouse.mcpserver.McpServers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * What the hub-level driver tests share: a real {@link TestHub} (store, runner, gate, HTTP API) running the
 * driver under test, an {@link EventRecorder} on it, project {@value #PROJECT} whose default agent is that
 * driver, and one task on it titled {@value #TITLE}. Closing closes the recorder and the hub; the test
 * closes its own fake model server and checks for child processes left.
 *
 * <p>Not thread-safe; one per test (its builder too).
 */
public final class DriverHub implements AutoCloseable {
  /** The project the hub has, by name. */
  public static final String PROJECT = "web";
  /** The task's title. */
  public static final String TITLE = "Say hello";

  private final TestHub hub;
  private final EventRecorder events;
  private final Path project;
  private final long task;

  private DriverHub(Builder setup) {
    Function<Hub, List<? extends HttpMount>> mounts = setup.mcp ? h -> List.of(McpServers.streamableHttp(h)) : h -> List.of();
    hub = TestHub.withDriversAndMounts(setup.config, List.of(setup.driver), mounts);
    events = new EventRecorder(hub.hub());
    try {
      project = setup.project != null ? setup.project : Path.of(hub.folder(PROJECT));
      http().op("project_create", map("name", PROJECT, "path", project.toString(), "default_agent", setup.driver.id()));
      task = http().op("task_create", map("project", PROJECT, "title", TITLE, "description", setup.description)).get("id").asLong();
    } catch (RuntimeException | AssertionError e) {
      close();
      throw e;
    }
  }

  /** A hub for {@code driver}: the default runner settings, no MCP endpoint, the project in a folder of the hub's. */
  public static Builder of(AgentDriver driver) {
    return new Builder(driver);
  }

  public TestHub hub() {
    return hub;
  }

  public HttpTestClient http() {
    return hub.http();
  }

  public EventRecorder events() {
    return events;
  }

  /** The project's folder. */
  public Path project() {
    return project;
  }

  /** The task's id. */
  public long task() {
    return task;
  }

  /** The next event of {@code type} on the task, failing after 20 s. */
  public Event await(String type) {
    return events.await(type, task);
  }

  /** The next event of {@code type} on the task, failing after {@code timeout}. */
  public Event await(String type, Duration timeout) {
    return events.await(type + " on task " + task, timeout, event -> event.type().equals(type) && Long.valueOf(task).equals(event.taskId()));
  }

  /** The task's transcript entries, as {@code task_transcript} gives them. */
  public JsonNode transcript() {
    return http().op("task_transcript", map("task", task)).get("entries");
  }

  /** The types of the task's transcript entries, in order. */
  public List<String> transcriptTypes() {
    List<String> types = new ArrayList<>();
    transcript().forEach(entry -> types.add(entry.get("type").asText()));
    return types;
  }

  @Override
  public void close() {
    events.close();
    hub.close();
  }

  /** How the hub is set up; not thread-safe. */
  public static final class Builder {
    private final AgentDriver driver;
    private UnaryOperator<HubConfig> config = UnaryOperator.identity();
    private boolean mcp;
    private Path project;
    private String description = "Write hello.txt";

    private Builder(AgentDriver driver) {
      this.driver = driver;
    }

    /** How long a turn lingers for the task's next message. */
    public Builder lingerTimeout(Duration linger) {
      config = hubConfig -> hubConfig.withRunner(hubConfig.runner().withLingerTimeout(linger));
      return this;
    }

    /** As {@code roundhouse serve} runs it: the hub's server also serves MCP, so turns get a task-scoped endpoint. */
    public Builder servingMcp() {
      mcp = true;
      return this;
    }

    /** The project's folder (one the test prepared); otherwise a fresh folder of the hub's. */
    public Builder projectAt(Path folder) {
      project = folder;
      return this;
    }

    /** The task's description (otherwise "Write hello.txt"). */
    public Builder taskDescription(String text) {
      description = text;
      return this;
    }

    public DriverHub start() {
      return new DriverHub(this);
    }
  }
}
