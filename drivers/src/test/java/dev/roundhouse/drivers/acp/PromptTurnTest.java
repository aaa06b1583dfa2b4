package dev.roundhouse.drivers.acp;

import static org.assertj.core.api.Assertions.assertThat;

import com.agentclientprotocol.sdk.spec.AcpSchema;
import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.drivers.testing.RecordingTurnContext;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.spi.PermissionVerdict;
import dev.roundhouse.hub.spi.TurnEvent;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The mapping of ACP session updates onto the turn contract, replaying a recorded Gemini CLI wire log. */
class PromptTurnTest {

  /** The recorded {@code gemini --acp} exchange ({@code >} is to the agent): a shell call, allowed, then text. */
  private static List<JsonNode> fixture() throws IOException {
    try (InputStream in = PromptTurnTest.class.getResourceAsStream("gemini-acp-tool.jsonl")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(line -> Json.read(line, JsonNode.class)).toList();
    }
  }

  private static AcpSchema.SessionNotification update(String json) {
    return AcpJson.convert(Json.read(json, JsonNode.class), AcpSchema.SessionNotification.class);
  }

  @Test
  void aRecordedGeminiToolTurnMapsOntoTheTurnContract() throws IOException {
    RecordingTurnContext context = new RecordingTurnContext(0).answer(PermissionVerdict.allow("allowed by the user"));
    PromptTurn turn = new PromptTurn(context);
    List<String> answers = new java.util.ArrayList<>();
    JsonNode result = null;
    for (JsonNode line : fixture()) {
      JsonNode message = line.get("msg");
      if (!line.get("dir").asText().equals("<")) {
        continue;
      }
      String method = message.path("method").asText();
      if (method.equals("session/update")) {
        turn.onUpdate(AcpJson.convert(message.get("params"), AcpSchema.SessionNotification.class));
      } else if (method.equals("session/request_permission")) {
        AcpSchema.RequestPermissionResponse answer = turn.onPermission(AcpJson.convert(message.get("params"), AcpSchema.RequestPermissionRequest.class));
        answers.add(AcpJson.MAPPER.writeValueAsString(answer));
      } else if (message.path("result").has("stopReason")) {
        result = message.get("result");
      }
    }
    turn.finish(result);

    assertThat(answers).containsExactly("{\"outcome\":{\"outcome\":\"selected\",\"optionId\":\"proceed_once\"}}");
    assertThat(context.permissionRequests()).singleElement().satisfies(request -> {
      assertThat(request.tool()).isEqualTo("execute");
      assertThat(request.command()).isEqualTo("echo hello-from-tool > tool_out.txt; ls");
      assertThat(request.description()).isEqualTo("echo hello-from-tool > tool_out.txt; ls");
    });
    assertThat(context.shape()).isEqualTo("turn.tool_call turn.tool_result turn.message turn.usage turn.result");
    TurnEvent.ToolCall call = context.events(TurnEvent.ToolCall.class).get(0);
    assertThat(call.callId()).isEqualTo("run_shell_command__run_shell_command_1796036496627_0");
    assertThat(call.input().get("title").asText()).isEqualTo("echo hello-from-tool > tool_out.txt; ls");
    assertThat(context.events(TurnEvent.ToolResult.class).get(0).isError()).isFalse();
    assertThat(context.events(TurnEvent.TextDelta.class)).hasSize(4);
    assertThat(context.events(TurnEvent.AssistantMessage.class).get(0).text()).startsWith("Tool ran. Response was: ").endsWith("</untrusted_context>\"} ");
    assertThat(context.events(TurnEvent.Usage.class).get(0)).isEqualTo(new TurnEvent.Usage(84, 14, null, false));
    assertThat(context.events(TurnEvent.Result.class).get(0).stopReason()).isEqualTo("end_turn");
  }

  @Test
  void toolOutputStreamsAsDeltasAndAFailedCallIsAnError() {
    RecordingTurnContext context = new RecordingTurnContext(0);
    PromptTurn turn = new PromptTurn(context);

    turn.onUpdate(update("{\"sessionId\":\"s\",\"update\":{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"t1\",\"title\":\"npm test\",\"kind\":\"execute\",\"status\":\"in_progress\",\"rawInput\":{\"command\":\"npm test\"}}}"));
    turn.onUpdate(update("{\"sessionId\":\"s\",\"update\":{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"t1\",\"content\":[{\"type\":\"content\",\"content\":{\"type\":\"text\",\"text\":\"1 passing\"}}]}}"));
    turn.onUpdate(update("{\"sessionId\":\"s\",\"update\":{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"t1\",\"content\":[{\"type\":\"content\",\"content\":{\"type\":\"text\",\"text\":\"1 passing\\n1 failing\"}}]}}"));
    turn.onUpdate(update("{\"sessionId\":\"s\",\"update\":{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"t1\",\"status\":\"failed\",\"content\":[{\"type\":\"content\",\"content\":{\"type\":\"text\",\"text\":\"exit 1\"}}]}}"));
    turn.onUpdate(update("{\"sessionId\":\"s\",\"update\":{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"t1\",\"status\":\"completed\"}}"));

    assertThat(context.shape()).isEqualTo("turn.tool_call turn.tool_output turn.tool_output turn.tool_result");
    assertThat(context.events(TurnEvent.ToolCall.class).get(0).input().at("/raw_input/command").asText()).isEqualTo("npm test");
    assertThat(context.events(TurnEvent.ToolOutputDelta.class)).extracting(TurnEvent.ToolOutputDelta::text).containsExactly("1 passing", "\n1 failing");
    assertThat(context.events(TurnEvent.ToolResult.class)).singleElement().isEqualTo(new TurnEvent.ToolResult("t1", "exit 1", true));
  }

  @Test
  void aPlanIsRecordedAsAChecklistAndThoughtsAndUnknownKindsAreNot() {
    RecordingTurnContext context = new RecordingTurnContext(0);
    PromptTurn turn = new PromptTurn(context);

    turn.onUpdate(update("{\"sessionId\":\"s\",\"update\":{\"sessionUpdate\":\"agent_thought_chunk\",\"content\":{\"type\":\"text\",\"text\":\"hmm\"}}}"));
    turn.onUpdate(update("{\"sessionId\":\"s\",\"update\":{\"sessionUpdate\":\"plan\",\"entries\":["
        + "{\"content\":\"read the code\",\"priority\":\"high\",\"status\":\"completed\"},"
        + "{\"content\":\"write the test\",\"priority\":\"medium\",\"status\":\"in_progress\"},"
        + "{\"content\":\"ship\",\"priority\":\"low\",\"status\":\"pending\"}]}}"));
    AcpSchema.SessionNotification unknown = update("{\"sessionId\":\"s\",\"update\":{\"sessionUpdate\":\"session_info_update\",\"title\":\"x\"}}");

    assertThat(unknown.update()).as("an update kind newer than the SDK reads as nothing, not as a failure").isNull();
    assertThat(context.shape()).isEqualTo("turn.tool_call turn.tool_result");
    assertThat(context.events(TurnEvent.ToolCall.class).get(0).tool()).isEqualTo("plan");
    assertThat(context.events(TurnEvent.ToolResult.class).get(0).output()).isEqualTo("[x] read the code\n[~] write the test\n[ ] ship");
  }

  @Test
  void aDeniedCallIsClosedWithAnErrorAndACallLeftOpenIsClosedAtTheEnd() {
    RecordingTurnContext context = new RecordingTurnContext(0); // nothing scripted: denied
    PromptTurn turn = new PromptTurn(context);
    AcpSchema.RequestPermissionRequest request = AcpJson.convert(Json.read("{\"sessionId\":\"s\",\"toolCall\":{\"toolCallId\":\"t1\",\"title\":\"Write notes.txt\",\"kind\":\"edit\",\"status\":\"pending\"},"
        + "\"options\":[{\"optionId\":\"yes\",\"name\":\"Allow\",\"kind\":\"allow_once\"},{\"optionId\":\"no\",\"name\":\"Reject\",\"kind\":\"reject_once\"}]}", JsonNode.class),
        AcpSchema.RequestPermissionRequest.class);

    AcpSchema.RequestPermissionResponse answer = turn.onPermission(request);
    turn.onUpdate(update("{\"sessionId\":\"s\",\"update\":{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"t2\",\"title\":\"Read a.txt\",\"kind\":\"read\",\"status\":\"in_progress\"}}"));
    turn.finish(Json.read("{\"stopReason\":\"cancelled\"}", JsonNode.class));

    assertThat(answer.outcome()).isEqualTo(new AcpSchema.PermissionSelected("no"));
    assertThat(context.permissionRequests().get(0).command()).isNull();
    assertThat(context.shape()).isEqualTo("turn.tool_call turn.permission_denied turn.tool_result turn.tool_call turn.tool_result turn.result");
    assertThat(context.events(TurnEvent.ToolResult.class)).extracting(TurnEvent.ToolResult::output).containsExactly(
        "permission denied: no answer", "the agent ended the prompt (cancelled) before this tool finished");
  }

  private static AcpSchema.RequestPermissionRequest permission(String toolCall) {
    return AcpJson.convert(Json.read("{\"sessionId\":\"s\",\"toolCall\":" + toolCall + ","
        + "\"options\":[{\"optionId\":\"proceed_once\",\"name\":\"Allow\",\"kind\":\"allow_once\"},"
        + "{\"optionId\":\"cancel\",\"name\":\"Reject\",\"kind\":\"reject_once\"}]}", JsonNode.class),
        AcpSchema.RequestPermissionRequest.class);
  }

  /** Gemini CLI 0.61.0 asks about an MCP tool with its title and the arguments as JSON text (its "explanation"), nothing else. */
  @Test
  void anMcpToolsPermissionShowsTheArgumentsGeminiSentAsText() {
    RecordingTurnContext context = new RecordingTurnContext(0).answer(PermissionVerdict.allow("allowed by the user"));
    PromptTurn turn = new PromptTurn(context);

    turn.onPermission(permission("{\"toolCallId\":\"mcp_roundhouse_suggest_task_1\",\"status\":\"pending\","
        + "\"title\":\"suggest_task (roundhouse MCP Server)\",\"kind\":\"other\",\"locations\":[],"
        + "\"content\":[{\"type\":\"content\",\"content\":{\"type\":\"text\",\"text\":\"{\\\"project\\\":\\\"web\\\",\\\"title\\\":\\\"Add a dark mode\\\"}\"}}]}"));

    assertThat(context.permissionRequests()).singleElement().satisfies(request -> {
      assertThat(request.tool()).isEqualTo("suggest_task");
      assertThat(request.description()).isEqualTo("Call suggest_task (roundhouse MCP Server) with {\"project\":\"web\",\"title\":\"Add a dark mode\"}");
      assertThat(request.input().path("arguments").path("title").asText()).isEqualTo("Add a dark mode");
    });
    assertThat(context.events(TurnEvent.ToolCall.class).get(0).input().path("arguments").path("project").asText()).isEqualTo("web");
  }

  /** Gemini asks about a file write with a diff: the gate sees the path and the text that will be written. */
  @Test
  void anEditsPermissionShowsThePathAndTheNewText() {
    RecordingTurnContext context = new RecordingTurnContext(0).answer(PermissionVerdict.allow("allowed by the user"));
    PromptTurn turn = new PromptTurn(context);

    turn.onPermission(permission("{\"toolCallId\":\"write_file_1\",\"status\":\"pending\",\"title\":\"Writing to notes.txt\",\"kind\":\"edit\","
        + "\"locations\":[{\"path\":\"/p/notes.txt\"}],"
        + "\"content\":[{\"type\":\"diff\",\"path\":\"/p/notes.txt\",\"oldText\":null,\"newText\":\"one\\ntwo\\n\"}]}"));

    assertThat(context.permissionRequests()).singleElement().satisfies(request -> {
      assertThat(request.tool()).isEqualTo("edit");
      assertThat(request.description()).isEqualTo("Create /p/notes.txt (2 lines)");
      assertThat(request.input().at("/changes/0/path").asText()).isEqualTo("/p/notes.txt");
      assertThat(request.input().at("/changes/0/new_text").asText()).isEqualTo("one\ntwo\n");
    });
  }

  @Test
  void whatWeSendNamesEachTypeOnce() throws IOException {
    String prompt = AcpJson.MAPPER.writeValueAsString(new AcpSchema.PromptRequest("s", List.of(new AcpSchema.TextContent("hi"))));
    String cancelled = AcpJson.MAPPER.writeValueAsString(AcpConnection.CANCELLED);

    assertThat(prompt).isEqualTo("{\"sessionId\":\"s\",\"prompt\":[{\"type\":\"text\",\"text\":\"hi\"}]}");
    assertThat(cancelled).isEqualTo("{\"outcome\":{\"outcome\":\"cancelled\"}}");
    AcpSchema.ContentBlock read = AcpJson.MAPPER.readValue("{\"type\":\"text\",\"text\":\"hi\"}", AcpSchema.ContentBlock.class);
    assertThat(read).isEqualTo(new AcpSchema.TextContent("text", "hi", null, null));
  }

  @Test
  void aToolOfKindOtherIsNamedByItsTitleWhenTheTitleIsAName() {
    assertThat(ToolCalls.toolName(AcpSchema.ToolKind.OTHER, "suggest_task (roundhouse MCP Server)")).isEqualTo("suggest_task");
    assertThat(ToolCalls.toolName(null, "task_list")).isEqualTo("task_list");
    assertThat(ToolCalls.toolName(AcpSchema.ToolKind.OTHER, "Fetch https://example.com")).isEqualTo("other");
    assertThat(ToolCalls.toolName(AcpSchema.ToolKind.EXECUTE, "ls")).isEqualTo("execute");
  }
}
