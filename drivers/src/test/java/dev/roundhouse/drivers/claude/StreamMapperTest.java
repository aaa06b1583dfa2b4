package dev.roundhouse.drivers.claude;

import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.spi.PermissionRequest;
import dev.roundhouse.hub.spi.TurnEvent;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The mapping replayed over transcripts recorded from the real CLI ({@code shared/fixtures/claude}). */
class StreamMapperTest {

  /** Records what the mapper found. */
  static final class Recording implements StreamMapper.Sink {
    final List<TurnEvent> events = new ArrayList<>();
    final List<String> permissionIds = new ArrayList<>();
    final List<PermissionRequest> permissions = new ArrayList<>();
    final List<String> unsupported = new ArrayList<>();
    final List<StreamMapper.Ending> endings = new ArrayList<>();

    @Override
    public void emit(TurnEvent event) {
      events.add(event);
    }

    @Override
    public void permission(String requestId, PermissionRequest request) {
      permissionIds.add(requestId);
      permissions.add(request);
      events.add(new TurnEvent.PermissionRequested(0, request.tool(), request.input(), request.description()));
    }

    @Override
    public void unsupportedControl(String requestId, String subtype) {
      unsupported.add(requestId + " " + subtype);
    }

    @Override
    public void ended(StreamMapper.Ending ending) {
      endings.add(ending);
    }

    String shape() {
      return events.stream().filter(event -> !(event instanceof TurnEvent.TextDelta)).map(TurnEvent::type).collect(Collectors.joining(" "));
    }

    <T extends TurnEvent> List<T> events(Class<T> type) {
      return events.stream().filter(type::isInstance).map(type::cast).toList();
    }
  }

  private static Recording replay(String fixture) {
    StreamMapper mapper = new StreamMapper();
    Recording sink = new Recording();
    try (InputStream in = StreamMapperTest.class.getResourceAsStream("fixtures/" + fixture + ".jsonl")) {
      new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().forEach(line -> mapper.accept(line, sink));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return sink;
  }

  private static Recording feed(String... lines) {
    StreamMapper mapper = new StreamMapper();
    Recording sink = new Recording();
    for (String line : lines) {
      mapper.accept(line, sink);
    }
    return sink;
  }

  @Test
  void aStreamedAnswerMapsToSessionDeltasMessageUsageAndResult() {
    Recording sink = replay("02-hi-partial");

    assertThat(sink.shape()).isEqualTo("turn.session turn.message turn.usage turn.result");
    assertThat(sink.events(TurnEvent.SessionStarted.class).get(0))
        .isEqualTo(new TurnEvent.SessionStarted("f9f54ffb-7522-4543-8401-7c1798c0df3c", "claude-opus-5-5"));
    assertThat(sink.events(TurnEvent.TextDelta.class)).extracting(TurnEvent.TextDelta::text).containsExactly("hi from ", "fake mod", "el");
    assertThat(sink.events(TurnEvent.AssistantMessage.class).get(0).text()).isEqualTo("hi from fake model");
    // The context: the last request's 100 input tokens of the model's 1,000,000-token window (modelUsage).
    assertThat(sink.events(TurnEvent.Usage.class).get(0)).isEqualTo(new TurnEvent.Usage(100, 20, 0.0008, false, 100L, 1_000_000L));
    assertThat(sink.events(TurnEvent.Result.class).get(0)).isEqualTo(new TurnEvent.Result("end_turn", "hi from fake model"));
    assertThat(sink.endings).singleElement().satisfies(ending -> assertThat(ending.failed()).isFalse());
  }

  @Test
  void aToolUseAsksThenReportsTheCallAndItsResult() {
    Recording sink = replay("12-stdio-permission-allow");

    assertThat(sink.shape()).isEqualTo(
        "turn.session turn.tool_call turn.permission_requested turn.tool_result turn.message turn.usage turn.result");
    assertThat(sink.permissionIds).containsExactly("a099f900-d7c1-43e9-9851-f6f94135c84c");
    PermissionRequest asked = sink.permissions.get(0);
    assertThat(asked.callId()).isEqualTo("toolu_44423e8c7b3b49cba884a8aa");
    assertThat(asked.tool()).isEqualTo("Write");
    assertThat(asked.description()).isEqualTo("Write /home/dev/project/hello.txt");
    assertThat(asked.command()).isNull();
    TurnEvent.ToolResult result = sink.events(TurnEvent.ToolResult.class).get(0);
    assertThat(result.callId()).isEqualTo("toolu_44423e8c7b3b49cba884a8aa");
    assertThat(result.isError()).isFalse();
    assertThat(result.output()).startsWith("File created successfully");
  }

  @Test
  void aDeniedToolUseReportsAnErrorResult() {
    Recording sink = replay("13-stdio-permission-deny");

    TurnEvent.ToolResult result = sink.events(TurnEvent.ToolResult.class).get(0);
    assertThat(result.isError()).isTrue();
    assertThat(result.output()).isEqualTo("driver denied Write");
  }

  @Test
  void theClisOwnRefusalIsAPermissionDenied() {
    Recording sink = replay("06-bash-denied-dontAsk");

    assertThat(sink.permissions).isEmpty();
    TurnEvent.PermissionDenied denied = sink.events(TurnEvent.PermissionDenied.class).get(0);
    assertThat(denied.callId()).isEqualTo("toolu_6555ba972fab40cbbeaeeb4d");
    assertThat(denied.tool()).isEqualTo("Bash");
    assertThat(denied.reason()).startsWith("Permission to use Bash has been denied because Claude Code is running in don't ask mode.");
  }

  @Test
  void eachAnswerOfALongLivedProcessCostsItsOwnShareNotTheRunningTotal() {
    Recording sink = replay("11-stream-json-input-2turns");

    assertThat(sink.events(TurnEvent.SessionStarted.class)).as("one session, though init repeats per message").hasSize(1);
    assertThat(sink.events(TurnEvent.Usage.class)).extracting(TurnEvent.Usage::costUsd).containsExactly(0.0008, 0.0008);
    assertThat(sink.events(TurnEvent.Result.class)).extracting(TurnEvent.Result::text)
        .containsExactly("turn 0 reply to: first question", "turn 1 reply to: second question");
  }

  @Test
  void anInterruptedAnswerEndsAsAnErrorWithoutAResult() {
    Recording sink = replay("15-interrupt");

    assertThat(sink.endings).hasSize(2);
    assertThat(sink.endings.get(0).subtype()).isEqualTo("error_during_execution");
    assertThat(sink.endings.get(0).failed()).isTrue();
    assertThat(sink.endings.get(1).failed()).isFalse();
    assertThat(sink.events(TurnEvent.Result.class)).hasSize(1);
  }

  @Test
  void mcpToolResultsJoinTheirTextBlocks() {
    Recording sink = replay("09-mcp-echo-via-ppt");

    assertThat(sink.events(TurnEvent.ToolCall.class).get(0).tool()).isEqualTo("mcp__probe__echo");
    assertThat(sink.events(TurnEvent.ToolResult.class).get(0).output()).isEqualTo("echo: ping");
  }

  @Test
  void anApiErrorIsAFailureThoughTheSubtypeSaysSuccess() {
    Recording sink = feed(
        "{\"type\":\"assistant\",\"message\":{\"model\":\"<synthetic>\",\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"API Error: 529 overloaded\"}]},"
            + "\"session_id\":\"s\",\"error\":\"overloaded\",\"is_api_error_message\":true,\"api_error_status\":529}",
        "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":true,\"api_error_status\":529,\"api_error_type\":\"overloaded_error\","
            + "\"result\":\"API Error: 529 overloaded\",\"stop_reason\":\"stop_sequence\",\"total_cost_usd\":0,\"usage\":{\"input_tokens\":0,\"output_tokens\":0}}");

    assertThat(sink.shape()).isEqualTo("turn.usage");
    assertThat(sink.endings.get(0).problem()).isEqualTo("the model API answered 529 (overloaded_error): API Error: 529 overloaded");
  }

  @Test
  void anUnknownResumeIdIsAVanishedSession() {
    Recording sink = feed(
        "{\"type\":\"result\",\"subtype\":\"error_during_execution\",\"is_error\":true,\"num_turns\":0,\"session_id\":\"0b1f\","
            + "\"total_cost_usd\":0,\"errors\":[\"No conversation found with session ID: 0b1f\"]}");

    assertThat(sink.events).isEmpty();
    assertThat(sink.endings.get(0).vanished()).isTrue();
    assertThat(sink.endings.get(0).problem()).isEqualTo("No conversation found with session ID: 0b1f");
  }

  @Test
  void otherControlRequestsAreRefusedAndNoiseIsSkipped() {
    Recording sink = feed(
        "not json at all",
        "{\"type\":\"control_request\",\"request_id\":\"r9\",\"request\":{\"subtype\":\"hook_callback\"}}",
        "{\"type\":\"system\",\"subtype\":\"api_retry\",\"attempt\":1}",
        "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"hello\"},\"isReplay\":true}");

    assertThat(sink.events).isEmpty();
    assertThat(sink.unsupported).containsExactly("r9 hook_callback");
  }

  @Test
  void thinkingBlocksAreThoughtsAndTheTaskToolsMakeThePlan() {
    Recording sink = replay("16-thinking-and-tasks");

    assertThat(sink.shape()).isEqualTo("turn.session turn.thought turn.tool_call turn.tool_call turn.tool_result turn.plan "
        + "turn.tool_result turn.plan turn.tool_call turn.tool_result turn.plan turn.thought turn.message turn.usage turn.result");
    assertThat(sink.events(TurnEvent.Thought.class)).extracting(TurnEvent.Thought::text)
        .containsExactly("Two steps: tests, then shipping.", "The plan is in place.");
    assertThat(sink.events(TurnEvent.ToolCall.class)).extracting(TurnEvent.ToolCall::tool).containsExactly("TaskCreate", "TaskCreate", "TaskUpdate");
    assertThat(sink.events(TurnEvent.Plan.class)).extracting(TurnEvent.Plan::entries).containsExactly(
        List.of(new TurnEvent.PlanEntry("Write tests", "pending", null)),
        List.of(new TurnEvent.PlanEntry("Write tests", "pending", null), new TurnEvent.PlanEntry("Ship", "pending", null)),
        List.of(new TurnEvent.PlanEntry("Write tests", "in_progress", null), new TurnEvent.PlanEntry("Ship", "pending", null)));
    TurnEvent.Usage usage = sink.events(TurnEvent.Usage.class).get(0);
    assertThat(usage.inputTokens()).as("all three requests").isEqualTo(303);
    assertThat(usage.contextTokens()).as("the last request's input").isEqualTo(102);
    assertThat(usage.contextWindow()).isEqualTo(1_000_000);
  }

  @Test
  void aPlanningCallTheCliRefusesChangesNoPlan() {
    Recording sink = replay("17-thinking-todowrite-disabled");

    assertThat(sink.events(TurnEvent.ToolCall.class)).extracting(TurnEvent.ToolCall::tool).containsExactly("TodoWrite");
    assertThat(sink.events(TurnEvent.ToolResult.class).get(0).isError()).isTrue();
    assertThat(sink.events(TurnEvent.Plan.class)).isEmpty();
    assertThat(sink.events(TurnEvent.Thought.class)).extracting(TurnEvent.Thought::text).containsExactly("The user wants a plan.", "Now answer.");
  }

  @Test
  void todoWriteReplacesTheWholePlan() {
    // Claude Code 2.1.332 refuses TodoWrite (see 17-...); older CLIs accept it: these lines have their shape.
    Recording sink = feed(
        todoWrite("toolu_1", "{\"content\":\"Read the code\",\"status\":\"completed\",\"priority\":\"high\"},"
            + "{\"content\":\"Fix the bug\",\"status\":\"in_progress\",\"activeForm\":\"Fixing\"}"),
        toolResult("toolu_1", false),
        todoWrite("toolu_2", "{\"content\":\"Fix the bug\",\"status\":\"completed\"}"),
        toolResult("toolu_2", false));

    assertThat(sink.shape()).isEqualTo("turn.tool_call turn.tool_result turn.plan turn.tool_call turn.tool_result turn.plan");
    assertThat(sink.events(TurnEvent.Plan.class)).extracting(TurnEvent.Plan::entries).containsExactly(
        List.of(new TurnEvent.PlanEntry("Read the code", "completed", "high"), new TurnEvent.PlanEntry("Fix the bug", "in_progress", "medium")),
        List.of(new TurnEvent.PlanEntry("Fix the bug", "completed", "medium")));
  }

  @Test
  void aSubagentsThinkingAndPlanAreNotTheAgents() {
    Recording sink = feed(
        "{\"type\":\"assistant\",\"parent_tool_use_id\":\"toolu_task\",\"message\":{\"content\":["
            + "{\"type\":\"thinking\",\"thinking\":\"the subagent muses\"},"
            + "{\"type\":\"tool_use\",\"id\":\"toolu_s\",\"name\":\"TodoWrite\",\"input\":{\"todos\":[{\"content\":\"x\",\"status\":\"pending\"}]}}],"
            + "\"usage\":{\"input_tokens\":5000}}}",
        "{\"type\":\"user\",\"parent_tool_use_id\":\"toolu_task\",\"message\":{\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_s\",\"content\":\"ok\"}]}}",
        "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\"done\",\"usage\":{\"input_tokens\":5000,\"output_tokens\":3}}");

    assertThat(sink.shape()).isEqualTo("turn.tool_call turn.tool_result turn.usage turn.result");
    assertThat(sink.events(TurnEvent.Usage.class).get(0).contextTokens()).as("a subagent's context is its own").isNull();
    assertThat(sink.events(TurnEvent.Usage.class).get(0).contextWindow()).as("no modelUsage, no window").isNull();
  }

  @Test
  void theContextWindowIsTheSessionModels() {
    Recording sink = feed(
        "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s1\",\"model\":\"claude-sonnet-9\"}",
        "{\"type\":\"assistant\",\"parent_tool_use_id\":null,\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"hi\"}],"
            + "\"usage\":{\"input_tokens\":7,\"cache_read_input_tokens\":4000,\"cache_creation_input_tokens\":300}}}",
        "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\"hi\",\"usage\":{\"input_tokens\":7,\"output_tokens\":3},"
            + "\"modelUsage\":{\"claude-haiku-9\":{\"contextWindow\":2000000},\"claude-sonnet-9\":{\"contextWindow\":200000}}}");

    TurnEvent.Usage usage = sink.events(TurnEvent.Usage.class).get(0);
    assertThat(usage.contextTokens()).as("input, cache reads and cache writes").isEqualTo(4307);
    assertThat(usage.contextWindow()).isEqualTo(200_000);
  }

  private static String todoWrite(String id, String todos) {
    return "{\"type\":\"assistant\",\"parent_tool_use_id\":null,\"message\":{\"content\":[{\"type\":\"tool_use\",\"id\":\"" + id
        + "\",\"name\":\"TodoWrite\",\"input\":{\"todos\":[" + todos + "]}}]}}";
  }

  private static String toolResult(String id, boolean isError) {
    return "{\"type\":\"user\",\"parent_tool_use_id\":null,\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\""
        + id + "\",\"content\":\"Todos have been modified successfully\",\"is_error\":" + isError + "}]}}";
  }
}
