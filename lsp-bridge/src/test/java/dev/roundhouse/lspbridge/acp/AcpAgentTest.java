package dev.roundhouse.lspbridge.acp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.agentclientprotocol.sdk.client.AcpAsyncClient;
import com.agentclientprotocol.sdk.client.AcpClient;
import com.agentclientprotocol.sdk.client.transport.AgentParameters;
import com.agentclientprotocol.sdk.client.transport.StdioAcpClientTransport;
import com.agentclientprotocol.sdk.spec.AcpSchema;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.roundhouse.hub.spi.PermissionRequest;
import dev.roundhouse.hub.spi.PermissionVerdict;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.testing.TestDriver;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.testing.Waits;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.model.Decision;
import reactor.core.publisher.Mono;

/**
 * The ACP Java SDK's client drives {@code roundhouse acp} as a process against a real hub whose test driver
 * streams text, calls a tool and asks permission.
 */
class AcpAgentTest {
  private final List<PermissionVerdict> verdicts = new CopyOnWriteArrayList<>();
  private final List<AcpSchema.SessionUpdate> updates = new CopyOnWriteArrayList<>();
  private final List<AcpSchema.RequestPermissionRequest> asked = new CopyOnWriteArrayList<>();
  private volatile java.util.function.Function<AcpSchema.RequestPermissionRequest, Mono<AcpSchema.RequestPermissionResponse>> answer =
      request -> Mono.just(new AcpSchema.RequestPermissionResponse(new AcpSchema.PermissionSelected("allow_once")));
  private TestHub hub;
  private AcpAsyncClient client;
  private String web;

  @BeforeEach
  void start() {
    hub = TestHub.withDrivers(c -> c, List.of(new TestDriver("t", false, (request, context) -> {
      context.emit(new TurnEvent.TextDelta("Run"));
      context.emit(new TurnEvent.TextDelta("ning tests"));
      context.emit(new TurnEvent.AssistantMessage("Running tests"));
      context.emit(new TurnEvent.ToolCall("c1", "Bash", JsonNodeFactory.instance.objectNode().put("command", "make test")));
      PermissionVerdict verdict = context.requestPermission(
          new PermissionRequest("c1", "Bash", JsonNodeFactory.instance.objectNode().put("command", "make test"), "Run: make test", "make test"));
      verdicts.add(verdict);
      if (verdict.allowed()) {
        context.emit(new TurnEvent.ToolOutputDelta("c1", "ok\n"));
        context.emit(new TurnEvent.ToolResult("c1", "ok\n", false));
        context.emit(new TurnEvent.Usage(10, 5, 0.01, false));
        context.emit(new TurnEvent.AssistantMessage("All green."));
      }
    })));
    web = hub.folder("web");
    hub.http().op("project_create", Map.of("name", "web", "path", web, "default_agent", "t"));
    AgentParameters agent =
        AgentParameters.builder(Path.of(System.getProperty("java.home"), "bin", "java").toString())
            .args("-cp", System.getProperty("java.class.path"), AcpAgentProcess.class.getName(), hub.server().url(), hub.hub().token())
            .build();
    client =
        // The async client's consumers run on its reader thread, in wire order (the sync client hands each
        // notification to a thread pool, so it may see them out of order).
        AcpClient.async(new StdioAcpClientTransport(agent))
            .requestTimeout(Duration.ofSeconds(30))
            .sessionUpdateConsumer(notification -> Mono.fromRunnable(() -> updates.add(notification.update())))
            .requestPermissionHandler(request -> {
              asked.add(request);
              return answer.apply(request);
            })
            .build();
  }

  @AfterEach
  void stop() {
    try {
      if (client != null) {
        client.closeGracefully().block(Duration.ofSeconds(10));
      }
    } finally {
      hub.close();
    }
  }

  private AcpSchema.NewSessionResponse newSession(String cwd, Map<String, Object> meta) {
    await(client.initialize(new AcpSchema.InitializeRequest(1, new AcpSchema.ClientCapabilities())));
    return await(client.newSession(new AcpSchema.NewSessionRequest(cwd, List.of(), null, meta)));
  }

  private static <T> T await(Mono<T> call) {
    return call.block(Duration.ofSeconds(30));
  }

  private static AcpSchema.PromptRequest prompt(String sessionId, String text) {
    return new AcpSchema.PromptRequest(sessionId, List.of(new AcpSchema.TextContent(text)));
  }

  @Test
  void promptStreamsTheTurnAsksPermissionAndEndsWithEndTurn() {
    AcpSchema.InitializeResponse init = await(client.initialize(new AcpSchema.InitializeRequest(1, new AcpSchema.ClientCapabilities())));
    assertThat(init.protocolVersion()).isEqualTo(1);
    assertThat(init.agentCapabilities().loadSession()).isTrue();

    AcpSchema.NewSessionResponse session = await(client.newSession(new AcpSchema.NewSessionRequest(web, List.of())));
    assertThat(session.sessionId()).startsWith("task-");
    assertThat(session.modes().currentModeId()).isEqualTo("t");
    long task = Long.parseLong(session.sessionId().substring("task-".length()));

    AcpSchema.PromptResponse response = await(client.prompt(prompt(session.sessionId(), "run the tests")));

    assertThat(response.stopReason()).isEqualTo(AcpSchema.StopReason.END_TURN);
    assertThat(verdicts).singleElement().satisfies(v -> assertThat(v.allowed()).isTrue());
    assertThat(asked).singleElement().satisfies(request -> {
      assertThat(request.sessionId()).isEqualTo(session.sessionId());
      assertThat(request.toolCall().toolCallId()).isEqualTo("c1");
      assertThat(request.toolCall().kind()).isEqualTo(AcpSchema.ToolKind.EXECUTE);
      assertThat(request.options()).extracting(AcpSchema.PermissionOption::optionId).containsExactly("allow_once", "allow_always", "deny");
      assertThat(request.options()).extracting(AcpSchema.PermissionOption::kind)
          .containsExactly(AcpSchema.PermissionOptionKind.ALLOW_ONCE, AcpSchema.PermissionOptionKind.ALLOW_ALWAYS, AcpSchema.PermissionOptionKind.REJECT_ONCE);
    });
    assertThat(describe(updates)).containsExactly(
        "agent_message_chunk Run",
        "agent_message_chunk ning tests",
        "tool_call c1 execute in_progress Bash: make test",
        "tool_call_update c1 null ok\n",
        "tool_call_update c1 completed ok\n",
        "agent_message_chunk All green.");
    JsonNode stored = hub.http().op("task_get", Map.of("task", task));
    assertThat(stored.path("title").asText()).isEqualTo("run the tests");
    assertThat(response.meta()).containsKey("roundhouse");
  }

  @Test
  void cancelledPromptEndsCancelledAndItsPermissionIsAnsweredCancelled() throws Exception {
    CountDownLatch permissionAsked = new CountDownLatch(1);
    CompletableFuture<Void> cancelSent = new CompletableFuture<>();
    answer = request -> {
      permissionAsked.countDown();
      // a client answers its pending permissions with cancelled after session/cancel
      return Mono.fromFuture(cancelSent).thenReturn(new AcpSchema.RequestPermissionResponse(new AcpSchema.PermissionCancelled()));
    };
    AcpSchema.NewSessionResponse session = newSession(web, null);
    CompletableFuture<AcpSchema.PromptResponse> response = client.prompt(prompt(session.sessionId(), "run the tests")).toFuture();
    assertThat(permissionAsked.await(20, TimeUnit.SECONDS)).as("permission asked").isTrue();

    await(client.cancel(new AcpSchema.CancelNotification(session.sessionId())));
    cancelSent.complete(null);

    assertThat(response.get(20, TimeUnit.SECONDS).stopReason()).isEqualTo(AcpSchema.StopReason.CANCELLED);
    Waits.until("the turn's permission verdict", Duration.ofSeconds(10), () -> !verdicts.isEmpty());
    assertThat(verdicts.getFirst().allowed()).isFalse();
    JsonNode decisions = hub.http().op("decision_list", Map.of("include_closed", true));
    assertThat(decisions.path("pending").asInt()).isZero();
    assertThat(describe(updates)).doesNotContain("agent_message_chunk All green.");
  }

  @Test
  void secondPromptRunsAnotherTurnOnTheSameTask() {
    AcpSchema.NewSessionResponse session = newSession(web, null);
    assertThat(await(client.prompt(prompt(session.sessionId(), "first"))).stopReason()).isEqualTo(AcpSchema.StopReason.END_TURN);
    updates.clear();
    assertThat(await(client.prompt(prompt(session.sessionId(), "second"))).stopReason()).isEqualTo(AcpSchema.StopReason.END_TURN);
    assertThat(describe(updates)).endsWith("agent_message_chunk All green.");
    assertThat(asked).hasSize(2);
  }

  @Test
  void aDecisionOpenedWhileNoPromptRunsIsOfferedAndItsAnswerReachesTheTurn() {
    AcpSchema.NewSessionResponse session = newSession(web, null);
    long task = Long.parseLong(session.sessionId().substring("task-".length()));
    hub.http().op("turn_start", Map.of("task", task, "message", "started from the board"));

    Waits.until("the turn's permission verdict", Duration.ofSeconds(20), () -> !verdicts.isEmpty());
    assertThat(verdicts.getFirst().allowed()).isTrue();
    assertThat(asked).singleElement().satisfies(request -> assertThat(request.sessionId()).isEqualTo(session.sessionId()));
  }

  /**
   * An MCP sign-in's consent belongs to no task: the one pending before the first session and the one opened
   * while two sessions are open are each offered once, with "Allow" and "Deny", and the choice answers it.
   */
  @Test
  void aSignInsConsentIsOfferedOnceInTheFirstSessionAndItsAnswerClosesIt() {
    // Set first: the consent pending before the first session is offered as soon as that session opens.
    answer = request -> Mono.just(new AcpSchema.RequestPermissionResponse(new AcpSchema.PermissionSelected(
        request.toolCall().title().contains("Cursor") ? "allow" : "deny")));
    Decision before = consent("Allow Cursor from 127.0.0.1 to use Roundhouse as you?");
    AcpSchema.NewSessionResponse first = newSession(web, null);
    await(client.newSession(new AcpSchema.NewSessionRequest(web, List.of(), null, null)));
    Decision during = consent("Allow Claude Code from localhost to use Roundhouse as you?");

    Waits.until("both consents answered", Duration.ofSeconds(20), () -> !hub.hub().decisions().get(before.id()).orElseThrow().pending()
        && !hub.hub().decisions().get(during.id()).orElseThrow().pending());
    assertThat(hub.hub().decisions().get(before.id()).orElseThrow().answer()).isEqualTo("allow");
    assertThat(hub.hub().decisions().get(during.id()).orElseThrow().answer()).isEqualTo("deny");
    assertThat(asked).hasSize(2).allSatisfy(request -> {
      assertThat(request.sessionId()).isEqualTo(first.sessionId());
      assertThat(request.options()).extracting(AcpSchema.PermissionOption::optionId, AcpSchema.PermissionOption::name)
          .containsExactly(tuple("allow", "Allow"), tuple("deny", "Deny"));
    });
  }

  private Decision consent(String title) {
    return hub.hub().decisions().open(Actor.client("oauth"), "mcp_consent", null, null, title,
        JsonNodeFactory.instance.objectNode().put("client_name", "a client"), List.of("allow", "deny"));
  }

  @Test
  void joinsAnExistingTaskNamedInMeta() {
    long task = hub.http().op("task_create", Map.of("project", "web", "title", "Fix the login")).path("id").asLong();
    AcpSchema.NewSessionResponse session = newSession(web, Map.of("roundhouse", Map.of("task", task)));
    assertThat(session.sessionId()).isEqualTo("task-" + task);
    assertThat(await(client.prompt(prompt(session.sessionId(), "go"))).stopReason()).isEqualTo(AcpSchema.StopReason.END_TURN);
    assertThat(hub.http().op("task_get", Map.of("task", task)).path("title").asText()).isEqualTo("Fix the login");
  }

  @Test
  void unknownCwdIsRefusedNamingTheKnownProjects() {
    await(client.initialize(new AcpSchema.InitializeRequest(1, new AcpSchema.ClientCapabilities())));
    assertThatThrownBy(() -> await(client.newSession(new AcpSchema.NewSessionRequest("/nowhere/else", List.of()))))
        .hasMessageContaining("no Roundhouse project has the path /nowhere/else")
        .hasMessageContaining("web (" + web + ")");
  }

  @Test
  void loadReplaysTheTranscriptAndListNamesTheSessions() {
    AcpSchema.NewSessionResponse session = newSession(web, null);
    await(client.prompt(prompt(session.sessionId(), "run the tests")));
    updates.clear();

    await(client.loadSession(new AcpSchema.LoadSessionRequest(session.sessionId(), web, List.of())));

    assertThat(describe(updates)).containsExactly(
        "user_message_chunk run the tests",
        "agent_message_chunk Running tests",
        "tool_call c1 execute in_progress Bash: make test",
        "tool_call_update c1 completed ok\n",
        "agent_message_chunk All green.");
    AcpSchema.ListSessionsResponse list = await(client.listSessions(new AcpSchema.ListSessionsRequest(web)));
    assertThat(list.sessions()).extracting(AcpSchema.SessionInfo::sessionId).contains(session.sessionId());
    assertThat(list.sessions()).extracting(AcpSchema.SessionInfo::title).contains("run the tests");
  }

  private static List<String> describe(List<AcpSchema.SessionUpdate> updates) {
    List<String> lines = new ArrayList<>();
    for (AcpSchema.SessionUpdate update : updates) {
      lines.add(switch (update) {
        case AcpSchema.AgentMessageChunk chunk -> "agent_message_chunk " + text(chunk.content());
        case AcpSchema.UserMessageChunk chunk -> "user_message_chunk " + text(chunk.content());
        case AcpSchema.ToolCall call -> "tool_call " + call.toolCallId() + " " + call.kind().name().toLowerCase() + " " + call.status().name().toLowerCase() + " " + call.title();
        case AcpSchema.ToolCallUpdateNotification call -> "tool_call_update " + call.toolCallId() + " " + (call.status() == null ? "null" : call.status().name().toLowerCase()) + " " + contentText(call.content());
        default -> update.getClass().getSimpleName();
      });
    }
    return lines;
  }

  private static String text(AcpSchema.ContentBlock content) {
    return content instanceof AcpSchema.TextContent text ? text.text() : String.valueOf(content);
  }

  private static String contentText(List<AcpSchema.ToolCallContent> content) {
    StringBuilder text = new StringBuilder();
    if (content != null) {
      for (AcpSchema.ToolCallContent item : content) {
        if (item instanceof AcpSchema.ToolCallContentBlock block) {
          text.append(text(block.content()));
        }
      }
    }
    return text.toString();
  }
}
