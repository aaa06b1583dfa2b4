package dev.roundhouse.drivers.testing;

import static dev.roundhouse.hub.testing.HttpTestClient.map;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.testing.TestDriver;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.spi.AgentEndpoint;
import dev.roundhouse.mcpserver.McpServers;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The hub's real MCP endpoint with a live task-scoped token, for driver tests that run a driver outside a
 * hub (with a recording context) but want its CLI to reach the real thing: a {@link TestHub} serving MCP,
 * project {@code web} with one task, and a turn on that task (a parked stand-in driver) whose endpoint the
 * test hands to the driver under test. Whatever the CLI does through it is recorded as {@code agent:<task>}.
 * Closing ends the parked turn (revoking the token) and the hub.
 *
 * <p>Not thread-safe; one per test.
 */
public final class LiveAgentEndpoint implements AutoCloseable {
  /** The project the hub has, by name. */
  public static final String PROJECT = "web";

  private final CountDownLatch release = new CountDownLatch(1);
  private final CompletableFuture<AgentEndpoint> opened = new CompletableFuture<>();
  private final TestHub hub;
  private final long task;
  private final AgentEndpoint endpoint;

  private LiveAgentEndpoint() {
    TestDriver parked = new TestDriver("parked", false, (request, context) -> {
      context.agentEndpoint().ifPresentOrElse(opened::complete, () -> opened.completeExceptionally(new AssertionError("the turn got no agent endpoint")));
      release.await(2, TimeUnit.MINUTES);
    });
    hub = TestHub.withDriversAndMounts(config -> config, List.of(parked), h -> List.of(McpServers.streamableHttp(h)));
    try {
      hub.http().op("project_create", map("name", PROJECT, "path", hub.folder(PROJECT), "default_agent", "parked"));
      task = hub.http().op("task_create", map("project", PROJECT, "title", "Hold the endpoint")).get("id").asLong();
      hub.http().op("turn_start", map("task", task, "message", "hold"));
      endpoint = opened.get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close();
      throw new AssertionError(e);
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
      close();
      throw new AssertionError("no live agent endpoint: " + e, e);
    }
  }

  public static LiveAgentEndpoint open() {
    return new LiveAgentEndpoint();
  }

  /** The endpoint (URL and task token) to give the driver under test. */
  public AgentEndpoint endpoint() {
    return endpoint;
  }

  /** The task whose agent the endpoint acts for. */
  public long task() {
    return task;
  }

  public TestHub hub() {
    return hub;
  }

  /** The task titled {@code title} on the board of {@link #PROJECT}, as {@code task_list} shows it. */
  public JsonNode taskTitled(String title) {
    return hub.http().op("task_list", map("project", PROJECT)).findParents("title").stream()
        .filter(task -> task.path("title").asText().equals(title))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no task '" + title + "' on the board"));
  }

  @Override
  public void close() {
    release.countDown();
    hub.close();
  }
}
