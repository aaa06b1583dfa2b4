package dev.roundhouse.mcpserver;

import dev.roundhouse.hub.api.AgentToolsApi;
import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.spi.ExtensionContext;
import dev.roundhouse.hub.spi.ExtensionResource;
import dev.roundhouse.hub.spi.HubExtension;
import dev.roundhouse.hub.spi.TurnContributor;
import dev.roundhouse.hub.ops.Operation;
import dev.roundhouse.hub.ops.OperationAnnotations;
import dev.roundhouse.hub.testing.TestDriver;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.spi.AgentEndpoint;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An agent's MCP session lists, and may call, the tools of the extensions that own its task, and only those;
 * it reads an extension's resource only if it is offered the operation the resource follows.
 */
@SuppressWarnings("deprecation") // the SDK deprecates the one-argument request constructors without a replacement this test needs
class McpExtensionToolsTest {
  record NoInput() {}

  record Count(int things) {}

  /** Owns tasks tagged {@code things} and gives their agents {@code thing_count}. */
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
      context.offerResource(new ExtensionResource("things://count", "count", "Count", "How many things there are.",
          "text/plain", "thing_count", (actor, uri, variables) -> new ExtensionResource.Contents("text/plain", "3 things", Map.of())));
      context.offerResource(new ExtensionResource("things://things/{thing}", "thing", "A thing", "One thing.",
          "text/plain", "thing_count", (actor, uri, variables) -> new ExtensionResource.Contents("text/plain", variables.get("thing"), Map.of()))
          .withCompleter((actor, variable) -> List.of("hammer", "nail", "saw")));
    }

    @Override
    public boolean owns(Project project, Task task) {
      return task.tags().contains("things");
    }

    @Override
    public Set<String> agentTools() {
      return Set.of("thing_count");
    }

    @Override
    public String turnContext(Project project, Task task) {
      return "";
    }
  }

  private final CountDownLatch endTurns = new CountDownLatch(1);
  private final Map<Long, CompletableFuture<AgentEndpoint>> endpoints = new ConcurrentHashMap<>();
  private TestHub hub;

  @BeforeEach
  void start() {
    TestDriver driver = new TestDriver("cli", false, (request, context) -> {
      CompletableFuture<AgentEndpoint> opened = endpoints.computeIfAbsent(request.taskId(), id -> new CompletableFuture<>());
      context.agentEndpoint().ifPresentOrElse(opened::complete, () -> opened.completeExceptionally(new AssertionError("no endpoint")));
      endTurns.await(30, TimeUnit.SECONDS);
    });
    hub = TestHub.withExtensionsAndMounts(c -> c, List.of(driver), List.of(new ThingsExtension()), h -> List.of(McpServers.streamableHttp(h)));
    hub.http().op("project_create", map("name", "home", "path", hub.folder("home"), "default_agent", "cli"));
  }

  @AfterEach
  void stop() {
    endTurns.countDown();
    hub.close();
  }

  private McpSyncClient agentOf(String title, List<String> tags) throws Exception {
    long task = hub.http().op("task_create", map("project", "home", "title", title, "tags", tags)).get("id").asLong();
    hub.http().op("turn_start", map("task", task, "message", "go"));
    AgentEndpoint endpoint = endpoints.computeIfAbsent(task, id -> new CompletableFuture<>()).get(20, TimeUnit.SECONDS);
    String url = endpoint.url().toString();
    return McpClients.connect(url.substring(0, url.length() - McpServers.PATH.length()), endpoint.bearerToken(), "claude-code");
  }

  @Test
  void anOwnedTasksAgentListsAndCallsTheExtensionsTool() throws Exception {
    try (McpSyncClient agent = agentOf("Count things", List.of("things"))) {
      assertThat(agent.listTools().tools()).extracting(McpSchema.Tool::name)
          .containsAll(AgentToolsApi.NAMES).contains("thing_count").hasSize(AgentToolsApi.NAMES.size() + 1);
      McpSchema.CallToolResult counted = agent.callTool(McpSchema.CallToolRequest.builder("thing_count").arguments(Map.of()).build());
      assertThat(counted.isError()).isFalse();
      assertThat(((McpSchema.TextContent) counted.content().get(0)).text()).contains("3");
    }
  }

  @Test
  void anotherTasksAgentIsNotOfferedIt() throws Exception {
    try (McpSyncClient agent = agentOf("Fix the roof", List.of())) {
      assertThat(agent.listTools().tools()).extracting(McpSchema.Tool::name).containsExactlyInAnyOrderElementsOf(AgentToolsApi.NAMES);
      assertThatThrownBy(() -> agent.callTool(McpSchema.CallToolRequest.builder("thing_count").arguments(Map.of()).build()))
          .hasMessageContaining("no tool named 'thing_count' for an agent session");
    }
  }

  @Test
  void anOwnedTasksAgentReadsTheResourceOfItsTool() throws Exception {
    try (McpSyncClient agent = agentOf("Count things", List.of("things"))) {
      McpSchema.TextResourceContents count = (McpSchema.TextResourceContents)
          agent.readResource(new McpSchema.ReadResourceRequest("things://count")).contents().getFirst();
      assertThat(count.text()).isEqualTo("3 things");
    }
  }

  @Test
  void anotherTasksAgentCannotReadIt() throws Exception {
    try (McpSyncClient agent = agentOf("Fix the roof", List.of())) {
      assertThatThrownBy(() -> agent.readResource(new McpSchema.ReadResourceRequest("things://count")))
          .isInstanceOf(McpError.class)
          .hasMessageContaining("no resource things://count for an agent session (it follows thing_count")
          .satisfies(e -> assertThat(((McpError) e).getJsonRpcError().code()).isEqualTo(McpSchema.ErrorCodes.RESOURCE_NOT_FOUND));
    }
  }

  @Test
  void theTemplatesVariableCompletesForTheOwnedTasksAgentOnly() throws Exception {
    try (McpSyncClient owner = agentOf("Count things", List.of("things"))) {
      assertThat(completeThing(owner, "")).containsExactly("hammer", "nail", "saw");
      assertThat(completeThing(owner, "Sa")).containsExactly("saw");
    }
    try (McpSyncClient other = agentOf("Fix the roof", List.of())) {
      assertThat(completeThing(other, "")).as("it may not read the resource, so it is offered no values").isEmpty();
    }
  }

  private static List<String> completeThing(McpSyncClient client, String typed) {
    return client.completeCompletion(new McpSchema.CompleteRequest(new McpSchema.ResourceReference("things://things/{thing}"),
        new McpSchema.CompleteRequest.CompleteArgument("thing", typed))).completion().values();
  }
}
