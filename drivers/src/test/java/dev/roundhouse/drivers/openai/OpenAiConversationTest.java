package dev.roundhouse.drivers.openai;

import static dev.roundhouse.drivers.openai.FakeModelServer.streamText;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.roundhouse.drivers.testing.RecordingTurnContext;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.spi.ConversationEntry;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.spi.TurnRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** A turn continues the task's earlier conversation ({@code TurnContext.history()}), within the context budget. */
@ExtendWith(LeakCheck.class)
class OpenAiConversationTest {
  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T12:00:00Z"), ZoneOffset.UTC);

  @TempDir Path temp;
  Path home;
  Path repo;
  final FakeModelServer server = FakeModelServer.start();
  final RecordingTurnContext context = new RecordingTurnContext(9, CLOCK);
  final Map<String, String> env = new HashMap<>();

  @BeforeEach
  void setUp() throws IOException {
    home = Files.createDirectories(temp.resolve("home"));
    repo = Files.createDirectories(temp.resolve("repo"));
    env.put("ROUNDHOUSE_OPENAI_BASE_URL", server.baseUrl());
    env.put("ROUNDHOUSE_OPENAI_MODEL", "test-model");
  }

  @AfterEach
  void tearDown() {
    server.close();
  }

  private void run(String message, String resume) throws Exception {
    OpenAiDriver driver = new OpenAiDriver(env, home, new OpenAiDriver.Tuning(
        new RecordingSleeper(), () -> 0L, CLOCK, RetryPolicy.DEFAULT, 50, Duration.ofMinutes(1), Duration.ofSeconds(10), Duration.ofSeconds(5), warning -> {}));
    driver.run(new TurnRequest(9, 42, "web", repo, message, "Task 42: greet", List.of(), resume, null, null, false), context);
  }

  private static ConversationEntry.ToolCall call(String id, String tool, String json) throws IOException {
    return new ConversationEntry.ToolCall(id, tool, Json.mapper().readTree(json));
  }

  @Test
  void aSecondMessageSeesTheFirstOneItsAnswerAndItsToolCallsPairedWithTheirResults() throws Exception {
    context.history(List.of(
        new ConversationEntry.UserMessage("write hello.txt"),
        new ConversationEntry.AssistantMessage("Let me look first."),
        call("call_1", "list_files", "{\"path\": \".\"}"),
        new ConversationEntry.ToolResult("call_1", "README.md", false),
        call("call_2", "write_file", "{\"path\": \"hello.txt\", \"content\": \"hi\"}"),
        new ConversationEntry.ToolResult("call_2", "created hello.txt: 1 lines, 2 bytes", false),
        new ConversationEntry.AssistantMessage("I wrote hello.txt.")));
    server.enqueue(streamText("It says hi."));

    run("what did you write?", "session-of-turn-1");

    JsonNode messages = server.request(0).json().path("messages");
    assertThat(roles(messages)).containsExactly("system", "user", "assistant", "tool", "tool", "assistant", "user");
    assertThat(messages.get(1).path("content").asText()).isEqualTo("write hello.txt");
    JsonNode assistant = messages.get(2);
    assertThat(assistant.path("content").asText()).isEqualTo("Let me look first.");
    assertThat(assistant.path("tool_calls").findValuesAsText("id")).containsExactly("call_1", "call_2");
    assertThat(assistant.at("/tool_calls/1/function/name").asText()).isEqualTo("write_file");
    assertThat(assistant.at("/tool_calls/1/function/arguments").asText()).isEqualTo("{\"path\":\"hello.txt\",\"content\":\"hi\"}");
    assertThat(messages.get(3).path("tool_call_id").asText()).isEqualTo("call_1");
    assertThat(messages.get(3).path("content").asText()).isEqualTo("README.md");
    assertThat(messages.get(4).path("tool_call_id").asText()).isEqualTo("call_2");
    assertThat(messages.get(4).path("content").asText()).isEqualTo("created hello.txt: 1 lines, 2 bytes");
    assertThat(messages.get(5).path("content").asText()).isEqualTo("I wrote hello.txt.");
    assertThat(messages.get(6).path("content").asText()).isEqualTo("what did you write?");
    assertThat(context.events(TurnEvent.SessionStarted.class).getFirst().sessionId()).as("the generation's one session").isEqualTo("session-of-turn-1");
    assertThat(context.shape()).isEqualTo("turn.session turn.message turn.usage turn.result");
  }

  @Test
  void everyCallIsAnsweredOnceAndNothingAnswersACallThatIsNotThere() throws IOException {
    PriorConversation prior = PriorConversation.of(List.of(
        new ConversationEntry.UserMessage("go"),
        call("call_0", "run_command", "{\"command\": \"make\"}"),
        new ConversationEntry.ToolResult("call_0", "built", false),
        new ConversationEntry.ToolResult("call_0", "a second result for the same call", false),
        new ConversationEntry.ToolResult("call_gone", "a result whose call was pruned", false),
        // A later step that reuses the id, with arguments that were not JSON and a name a provider refuses.
        new ConversationEntry.ToolCall("call_0", "mcp:roundhouse/task get", TextNode.valueOf("{broken")),
        new ConversationEntry.UserMessage("stopped? go on"),
        call("call_9", "run_command", "{\"command\": \"make test\"}")));

    assertThat(prior.exchanges()).hasSize(2);
    List<JsonNode> first = List.copyOf(prior.exchanges().get(0).messages());
    assertThat(first).extracting(message -> message.path("role").asText()).containsExactly("user", "assistant", "tool", "assistant", "tool");
    assertThat(first.get(2).path("content").asText()).isEqualTo("built");
    assertThat(first.get(3).at("/tool_calls/0/function/name").asText()).isEqualTo("mcp_roundhouse_task_get");
    assertThat(first.get(3).at("/tool_calls/0/function/arguments").asText()).isEqualTo("{}");
    assertThat(first.get(4).path("content").asText()).isEqualTo(PriorConversation.NO_RESULT);
    List<JsonNode> second = List.copyOf(prior.exchanges().get(1).messages());
    assertThat(second).extracting(message -> message.path("role").asText()).containsExactly("user", "assistant", "tool");
    assertThat(second.get(2).path("tool_call_id").asText()).isEqualTo("call_9");
    assertThat(second.get(2).path("content").asText()).as("the turn was stopped before the call finished").isEqualTo(PriorConversation.NO_RESULT);
  }

  @Test
  void overTheBudgetTheOldestExchangesAreDroppedWholeAndTheTranscriptSaysSo() throws Exception {
    // What a request carries without any history: the budget is that plus room for two of the five exchanges.
    server.enqueue(streamText("ok"));
    run("and now?", null);
    JsonNode bare = server.request(0).json();
    long fixed = bare.path("messages").toString().length() + bare.path("tools").toString().length();
    List<ConversationEntry> history = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      history.add(new ConversationEntry.UserMessage("question " + i + " " + "q".repeat(1000)));
      history.add(call("call_" + i, "read_file", "{\"path\": \"file" + i + ".txt\"}"));
      history.add(new ConversationEntry.ToolResult("call_" + i, "r".repeat(1000), false));
      history.add(new ConversationEntry.AssistantMessage("answer " + i));
    }
    long exchange = PriorConversation.of(history.subList(0, 4)).exchanges().getFirst().chars();
    long budget = fixed + 300 + exchange * 5 / 2;
    env.put("ROUNDHOUSE_OPENAI_CONTEXT_CHARS", Long.toString(budget));
    RecordingTurnContext trimmed = new RecordingTurnContext(9, CLOCK).history(history);
    server.enqueue(streamText("ok"));

    new OpenAiDriver(env, home, new OpenAiDriver.Tuning(new RecordingSleeper(), () -> 0L, CLOCK, RetryPolicy.DEFAULT, 50,
            Duration.ofMinutes(1), Duration.ofSeconds(10), Duration.ofSeconds(5), warning -> {}))
        .run(new TurnRequest(9, 42, "web", repo, "and now?", "Task 42: greet", List.of(), null, null, null, false), trimmed);

    JsonNode body = server.request(1).json();
    JsonNode messages = body.path("messages");
    assertThat((long) messages.toString().length() + body.path("tools").toString().length()).as("the request fits the budget").isLessThanOrEqualTo(budget);
    assertThat(roles(messages)).containsExactly("system", "user", "assistant", "tool", "assistant", "user", "assistant", "tool", "assistant", "user");
    assertThat(messages.get(1).path("content").asText()).startsWith("question 4 ");
    assertThat(messages.get(2).at("/tool_calls/0/id").asText()).isEqualTo("call_4");
    assertThat(messages.get(3).path("tool_call_id").asText()).isEqualTo("call_4");
    assertThat(messages.get(5).path("content").asText()).startsWith("question 5 ");
    assertThat(messages.get(9).path("content").asText()).isEqualTo("and now?");
    assertThat(messages.get(0).path("content").asText()).endsWith("(The 3 oldest exchanges of this conversation were left out to fit the context window.)\n");
    assertThat(trimmed.shape()).isEqualTo("turn.session turn.context_trimmed turn.message turn.usage turn.result");
    TurnEvent.ContextTrimmed notice = trimmed.events(TurnEvent.ContextTrimmed.class).getFirst();
    assertThat(notice.droppedMessages()).isEqualTo(12);
    assertThat(notice.keptMessages()).isEqualTo(8);
    assertThat(notice.budgetChars()).isEqualTo(budget);
    assertThat(notice.text()).startsWith("Left the 3 oldest exchanges of this task's conversation (12 messages, ")
        .contains(" characters) out of the request to fit the context budget of " + budget + " characters;").endsWith("; 2 earlier exchanges kept.");
  }

  @Test
  void aConversationThatFitsIsSentWholeWithoutANotice() throws Exception {
    context.history(List.of(new ConversationEntry.UserMessage("hi"), new ConversationEntry.AssistantMessage("hello")));
    server.enqueue(streamText("ok"));

    run("again", null);

    assertThat(roles(server.request(0).json().path("messages"))).containsExactly("system", "user", "assistant", "user");
    assertThat(context.events(TurnEvent.ContextTrimmed.class)).isEmpty();
    assertThat(server.request(0).json().at("/messages/0/content").asText()).doesNotContain("left out");
  }

  private static List<String> roles(JsonNode messages) {
    List<String> roles = new ArrayList<>();
    messages.forEach(message -> roles.add(message.path("role").asText()));
    return roles;
  }
}
