package dev.roundhouse.drivers.codex;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.spi.TurnEvent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Replays the recorded app-server transcripts in shared/fixtures/codex through the mapper. */
class ItemEventsTest {
  private static final Path FIXTURES = Path.of("../../shared/fixtures/codex");

  private static List<TurnEvent> replay(String fixture, ItemEvents items) throws IOException {
    Path file = Path.of("").toAbsolutePath().resolve(FIXTURES).normalize().resolve(fixture);
    if (!Files.exists(file)) {
      file = Path.of("/work/shared/fixtures/codex").resolve(fixture);
    }
    List<TurnEvent> events = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      JsonNode entry = Json.mapper().readTree(line);
      JsonNode message = entry.path("msg");
      if (!entry.path("dir").asText().equals("<") || !message.has("method") || message.has("id")) {
        continue;
      }
      if (message.path("method").asText().equals("turn/started")) {
        items.turnStarted(message.at("/params/turn/id").asText());
      }
      events.addAll(items.map(message.path("method").asText(), message.path("params")));
    }
    return events;
  }

  private static String shape(List<TurnEvent> events) {
    return events.stream().filter(e -> !(e instanceof TurnEvent.TextDelta)).map(TurnEvent::type).collect(Collectors.joining(" "));
  }

  @Test
  void aPlainAnswerIsDeltasAMessageAndUsage() throws IOException {
    ItemEvents items = new ItemEvents("roundhouse", PriceTable.DEFAULT);
    items.model("gpt-5.5");

    List<TurnEvent> events = replay("appserver-text.jsonl", items);

    assertThat(events).filteredOn(TurnEvent.TextDelta.class::isInstance)
        .extracting(e -> ((TurnEvent.TextDelta) e).text()).containsExactly("Hi there! (fake ", "model)");
    assertThat(shape(events)).isEqualTo("turn.message turn.usage");
    assertThat(events.get(2)).isEqualTo(new TurnEvent.AssistantMessage("Hi there! (fake model)"));
    TurnEvent.Usage usage = (TurnEvent.Usage) events.get(3);
    assertThat(usage.inputTokens()).isEqualTo(42);
    assertThat(usage.outputTokens()).isEqualTo(7);
    assertThat(usage.costEstimated()).isTrue();
    assertThat(items.lastMessage()).isEqualTo("Hi there! (fake model)");
  }

  @Test
  void anApprovedCommandIsACallItsOutputAndAResult() throws IOException {
    List<TurnEvent> events = replay("appserver-tool-approval.jsonl", new ItemEvents("roundhouse", PriceTable.DEFAULT));

    assertThat(shape(events)).isEqualTo("turn.tool_call turn.tool_output turn.tool_result turn.usage turn.message turn.usage");
    TurnEvent.ToolCall call = (TurnEvent.ToolCall) events.get(0);
    assertThat(call.callId()).isEqualTo("call_2");
    assertThat(call.tool()).isEqualTo("shell");
    assertThat(call.input().path("command").asText()).isEqualTo("echo hello-from-tool > tool_out.txt; ls");
    assertThat(events.get(1)).isEqualTo(new TurnEvent.ToolOutputDelta("call_2", "README.md\ntool_out.txt\n"));
    assertThat(events.get(2)).isEqualTo(new TurnEvent.ToolResult("call_2", "README.md\ntool_out.txt\n", false));
  }

  @Test
  void aDeclinedCommandIsAnErrorResult() throws IOException {
    List<TurnEvent> events = replay("appserver-tool-untrusted-decline.jsonl", new ItemEvents("roundhouse", PriceTable.DEFAULT));

    assertThat(events).filteredOn(TurnEvent.ToolResult.class::isInstance)
        .containsExactly(new TurnEvent.ToolResult("call_2", "declined: the command did not run", true));
  }

  @Test
  void usageIsReportedOncePerModelCallAndOnlyForTheCurrentTurn() {
    ItemEvents items = new ItemEvents("roundhouse", PriceTable.DEFAULT);
    items.model("unknown-model");
    items.turnStarted("t2");
    JsonNode first = usage("t2", 100, 60, 40);
    JsonNode otherTurn = usage("t1", 50, 30, 20);

    assertThat(items.map("thread/tokenUsage/updated", otherTurn)).isEmpty();
    assertThat(items.map("thread/tokenUsage/updated", first)).containsExactly(new TurnEvent.Usage(60, 40, null, false));
    assertThat(items.map("thread/tokenUsage/updated", first)).as("a repeat").isEmpty();
  }

  @Test
  void usageSaysHowFullTheContextIsWhenCodexNamesTheWindow() throws IOException {
    ItemEvents items = new ItemEvents("roundhouse", PriceTable.DEFAULT);
    items.model("gpt-5.5");

    TurnEvent.Usage usage = replay("appserver-text.jsonl", items).stream()
        .filter(TurnEvent.Usage.class::isInstance).map(TurnEvent.Usage.class::cast).findFirst().orElseThrow();

    assertThat(usage.contextTokens()).as("last.inputTokens").isEqualTo(42);
    assertThat(usage.contextWindow()).as("modelContextWindow").isEqualTo(258_400);
  }

  @Test
  void aReasoningItemIsAThoughtOfItsSummaryElseItsText() {
    ItemEvents items = new ItemEvents("roundhouse", PriceTable.DEFAULT);

    assertThat(items.map("item/completed", Json.read("""
        {"threadId": "th", "turnId": "t1", "item": {"type": "reasoning", "id": "rs_1",
          "summary": ["**Planning** the change", "Tests first."], "content": ["raw chain"]}}
        """, JsonNode.class))).containsExactly(new TurnEvent.Thought("**Planning** the change\n\nTests first."));
    assertThat(items.map("item/completed", Json.read("""
        {"threadId": "th", "turnId": "t1", "item": {"type": "reasoning", "id": "rs_2", "summary": [], "content": ["open weights think aloud"]}}
        """, JsonNode.class))).containsExactly(new TurnEvent.Thought("open weights think aloud"));
    assertThat(items.map("item/completed", Json.read("""
        {"threadId": "th", "turnId": "t1", "item": {"type": "reasoning", "id": "rs_3", "summary": [], "content": []}}
        """, JsonNode.class))).as("encrypted reasoning shows nothing").isEmpty();
  }

  @Test
  void aPlanUpdateOfTheCurrentTurnIsThePlan() {
    ItemEvents items = new ItemEvents("roundhouse", PriceTable.DEFAULT);
    items.turnStarted("t2");
    String update = """
        {"threadId": "th", "turnId": "%s", "explanation": "tests first",
         "plan": [{"step": "Write tests", "status": "completed"}, {"step": "Fix it", "status": "inProgress"}, {"step": "Ship", "status": "pending"}]}
        """;

    assertThat(items.map("turn/plan/updated", Json.read(update.formatted("t1"), JsonNode.class))).as("another turn's").isEmpty();
    assertThat(items.map("turn/plan/updated", Json.read(update.formatted("t2"), JsonNode.class))).containsExactly(new TurnEvent.Plan(List.of(
        new TurnEvent.PlanEntry("Write tests", "completed", null),
        new TurnEvent.PlanEntry("Fix it", "in_progress", null),
        new TurnEvent.PlanEntry("Ship", "pending", null))));
  }

  @Test
  void mcpToolsOfTheHubKeepTheirNamesAndOthersArePrefixed() {
    ItemEvents items = new ItemEvents("roundhouse", PriceTable.DEFAULT);

    assertThat(items.mcpToolName("roundhouse", "suggest_task")).isEqualTo("suggest_task");
    assertThat(items.mcpToolName("github", "create_issue")).isEqualTo("mcp__github__create_issue");
  }

  private static JsonNode usage(String turn, long total, long input, long output) {
    return Json.read("""
        {"threadId": "th", "turnId": "%s", "tokenUsage": {
          "total": {"totalTokens": %d, "inputTokens": %d, "cachedInputTokens": 0, "outputTokens": %d, "reasoningOutputTokens": 0},
          "last": {"totalTokens": %d, "inputTokens": %d, "cachedInputTokens": 0, "outputTokens": %d, "reasoningOutputTokens": 0}}}
        """.formatted(turn, total, input, output, total, input, output), JsonNode.class);
  }
}
