package dev.roundhouse.drivers.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.spi.TurnContext;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.spi.TurnRequest;
import dev.roundhouse.hub.spi.TurnStoppedException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * One turn's conversation: send the messages, stream the answer, run the tools it calls, send the results
 * back, until the model answers without calling a tool or the step limit is reached. The task's earlier
 * turns in this generation ({@link TurnContext#history()}, as {@link PriorConversation}) come first, so a
 * second message continues the conversation; when a request would exceed the context budget ({@link
 * OpenAiSettings#contextChars()}), their oldest exchanges are left out, whole, and a {@code ContextTrimmed}
 * says so.
 *
 * <p>Events, in order: {@code SessionStarted}; per model step, a {@code ContextTrimmed} when more of the earlier
 * conversation had to be left out, {@code TextDelta}s, an {@code
 * AssistantMessage} when the step had text, {@code Usage} when the endpoint reported it, and for each tool
 * call a {@code ToolCall}, {@code ToolOutputDelta}s from a command, and a {@code ToolResult}; finally a
 * {@code Result}. When the gate refuses a call, the gate itself emits the {@code PermissionDenied} (inside
 * {@link TurnContext#requestPermission}) and the call's result is an error telling the model so. An endpoint
 * failure is an {@link EndpointException} out of {@link #run()}: the runner ends the turn as failed and
 * records the message as its {@code Error} event. Every event's text passes through {@link
 * OpenAiSettings#redact} first.
 *
 * <p>Not thread-safe: one per turn, run on the turn's thread.
 */
final class ChatLoop {
  private final TurnRequest request;
  private final TurnContext context;
  private final OpenAiSettings settings;
  private final String model;
  private final ChatClient client;
  private final Toolbox tools;
  private final int maxSteps;
  /** Room kept in the budget for the system prompt's note about what was left out. */
  private static final int TRIM_NOTE_CHARS = 200;
  /** This turn's messages: the user's, then the model's answers and the tools' results. */
  private final ArrayNode messages = Json.mapper().createArrayNode();
  private PriorConversation prior = PriorConversation.of(List.of());
  /** How many of the prior exchanges, oldest first, are left out of the requests; only ever grows. */
  private int dropped;

  ChatLoop(TurnRequest request, TurnContext context, OpenAiSettings settings, String model, ChatClient client, Toolbox tools, int maxSteps) {
    this.request = request;
    this.context = context;
    this.settings = settings;
    this.model = model;
    this.client = client;
    this.tools = tools;
    this.maxSteps = maxSteps;
  }

  void run() throws InterruptedException {
    // The task's session is its conversation in the current generation: the same id for every turn of it.
    String session = request.resumeSessionId() != null ? request.resumeSessionId() : UUID.randomUUID().toString();
    emit(new TurnEvent.SessionStarted(session, model));
    prior = PriorConversation.of(context.history());
    String system = systemPrompt(request, tools.names());
    messages.addObject().put("role", "user").put("content", request.message());
    ArrayNode definitions = tools.definitions();
    // As the request's JSON counts them: the tools, the system message (escapes included) and room for its note.
    long fixedChars = definitions.toString().length()
        + Json.mapper().createObjectNode().put("role", "system").put("content", system).toString().length() + TRIM_NOTE_CHARS;
    for (int step = 1; step <= maxSteps; step++) {
      checkStopped();
      ObjectNode body = Json.mapper().createObjectNode();
      body.put("model", model);
      body.set("messages", requestMessages(system, fixedChars));
      body.set("tools", definitions);
      ChatReply reply = ask(body);
      if (!reply.content().isEmpty()) {
        emit(new TurnEvent.AssistantMessage(reply.content()));
      }
      if (reply.usage() != null) {
        emit(new TurnEvent.Usage(reply.usage().inputTokens(), reply.usage().outputTokens(), reply.usage().costUsd(), false));
      }
      if (reply.toolCalls().isEmpty()) {
        emit(new TurnEvent.Result(reply.finishReason() == null ? "stop" : reply.finishReason(), reply.content()));
        return;
      }
      runTools(reply);
    }
    emit(new TurnEvent.Result(
        "max_steps",
        "Stopped after " + maxSteps + " model steps without a final answer (the step limit); send a message to continue."));
  }

  /**
   * What one request sends: the system prompt, the prior exchanges that fit the context budget with this
   * turn's messages (the oldest dropped first, whole; this turn's are never dropped), then this turn's.
   * Records a {@code ContextTrimmed} each time more are dropped.
   */
  private ArrayNode requestMessages(String system, long fixedChars) {
    List<PriorConversation.Exchange> exchanges = prior.exchanges();
    long used = fixedChars;
    for (JsonNode message : messages) {
      used += message.toString().length() + 1; // and its comma
    }
    long priorChars = 0;
    for (int i = dropped; i < exchanges.size(); i++) {
      priorChars += exchanges.get(i).chars();
    }
    int drop = dropped;
    while (drop < exchanges.size() && used + priorChars > settings.contextChars()) {
      priorChars -= exchanges.get(drop).chars();
      drop++;
    }
    if (drop > dropped) {
      dropped = drop;
      List<PriorConversation.Exchange> left = exchanges.subList(0, dropped);
      int droppedMessages = count(left);
      long droppedChars = left.stream().mapToLong(PriorConversation.Exchange::chars).sum();
      int keptMessages = count(exchanges.subList(dropped, exchanges.size()));
      emit(new TurnEvent.ContextTrimmed(droppedMessages, keptMessages, settings.contextChars(),
          "Left the " + plural(dropped, "oldest exchange") + " of this task's conversation (" + plural(droppedMessages, "message")
              + ", " + droppedChars + " characters) out of the request to fit the context budget of " + settings.contextChars()
              + " characters; " + plural(exchanges.size() - dropped, "earlier exchange") + " kept."));
    }
    ArrayNode sent = Json.mapper().createArrayNode();
    String note = dropped == 0 ? "" : "\n(The " + plural(dropped, "oldest exchange") + " of this conversation were left out to fit the context window.)\n";
    sent.addObject().put("role", "system").put("content", system + note);
    for (PriorConversation.Exchange exchange : exchanges.subList(dropped, exchanges.size())) {
      exchange.messages().forEach(sent::add);
    }
    sent.addAll(messages);
    return sent;
  }

  private static int count(List<PriorConversation.Exchange> exchanges) {
    return exchanges.stream().mapToInt(exchange -> exchange.messages().size()).sum();
  }

  private static String plural(int count, String noun) {
    return count + " " + noun + (count == 1 ? "" : "s");
  }

  private ChatReply ask(ObjectNode body) throws InterruptedException {
    try {
      return client.complete(body, text -> emit(new TurnEvent.TextDelta(text)));
    } catch (EndpointException e) {
      checkStopped();
      // The runner records the exception's message as the turn's turn.error; emitting one here would double it.
      throw e;
    } catch (InterruptedException e) {
      checkStopped();
      throw e;
    }
  }

  /** Parses every call's arguments, records the assistant message, then runs the calls in order. */
  private void runTools(ChatReply reply) throws InterruptedException {
    List<ToolArguments.Outcome> parsed = new ArrayList<>();
    ObjectNode assistant = messages.addObject();
    assistant.put("role", "assistant");
    if (reply.content().isEmpty()) {
      assistant.putNull("content");
    } else {
      assistant.put("content", reply.content());
    }
    ArrayNode calls = assistant.putArray("tool_calls");
    for (ChatReply.ToolCallRequest call : reply.toolCalls()) {
      ToolArguments.Outcome arguments = ToolArguments.parse(call.name(), call.arguments());
      parsed.add(arguments);
      ObjectNode entry = calls.addObject();
      entry.put("id", call.id());
      entry.put("type", "function");
      // Endpoints that check the history want valid JSON here: the repaired arguments, or {} when none.
      entry.putObject("function").put("name", call.name()).put("arguments", arguments.parsed().map(JsonNode::toString).orElse("{}"));
    }
    for (int i = 0; i < reply.toolCalls().size(); i++) {
      ChatReply.ToolCallRequest call = reply.toolCalls().get(i);
      ToolArguments.Outcome arguments = parsed.get(i);
      checkStopped();
      emit(new TurnEvent.ToolCall(call.id(), call.name(), arguments.parsed().<JsonNode>map(node -> node).orElse(TextNode.valueOf(call.arguments()))));
      ToolOutcome outcome;
      if (arguments.parsed().isEmpty()) {
        outcome = ToolOutcome.error(arguments.error());
      } else if (call.name().isBlank()) {
        outcome = ToolOutcome.error("the tool call has no name; the tools are: " + String.join(", ", tools.names()));
      } else {
        outcome = tools.call(call.id(), call.name(), arguments.parsed().get(), text -> emit(new TurnEvent.ToolOutputDelta(call.id(), text)));
      }
      String output = settings.redact(outcome.output());
      emit(new TurnEvent.ToolResult(call.id(), output, outcome.isError()));
      messages.addObject().put("role", "tool").put("tool_call_id", call.id()).put("content", output);
    }
  }

  private void checkStopped() {
    if (context.isStopped()) {
      throw new TurnStoppedException(request.turnId());
    }
  }

  /** Emits {@code event} with the key scrubbed from its text. */
  private void emit(TurnEvent event) {
    context.emit(redact(event));
  }

  private TurnEvent redact(TurnEvent event) {
    return switch (event) {
      case TurnEvent.TextDelta delta -> new TurnEvent.TextDelta(settings.redact(delta.text()));
      case TurnEvent.AssistantMessage message -> new TurnEvent.AssistantMessage(settings.redact(message.text()));
      case TurnEvent.ToolCall call -> new TurnEvent.ToolCall(call.callId(), call.tool(), redact(call.input()));
      case TurnEvent.ToolOutputDelta delta -> new TurnEvent.ToolOutputDelta(delta.callId(), settings.redact(delta.text()));
      case TurnEvent.ToolResult result -> new TurnEvent.ToolResult(result.callId(), settings.redact(result.output()), result.isError());
      case TurnEvent.Result result -> new TurnEvent.Result(result.stopReason(), settings.redact(result.text()));
      case TurnEvent.Error error -> new TurnEvent.Error(settings.redact(error.message()));
      default -> event;
    };
  }

  private JsonNode redact(JsonNode input) {
    String text = input.toString();
    String scrubbed = settings.redact(text);
    if (scrubbed.equals(text)) {
      return input;
    }
    try {
      return Json.mapper().readTree(scrubbed);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      return TextNode.valueOf(Secret.REDACTED);
    }
  }

  /**
   * The system prompt: how to work, then the project's and task's context, then earlier sessions' summaries.
   * How to work is a coding agent's instructions, or, for a turn that is not coding work, the prompt the
   * request carries ({@link TurnRequest#systemPrompt}) followed by the rules for using tools.
   */
  static String systemPrompt(TurnRequest request, List<String> toolNames) {
    StringBuilder prompt = new StringBuilder();
    if (!request.codingTask()) {
      prompt.append(request.systemPrompt().strip()).append("\n\n")
          .append("You act only through your tools (").append(String.join(", ", toolNames)).append("). ")
          .append("A tool call may need the user's approval; when one is refused, do not repeat it: explain, or take another way. ")
          .append("Tool arguments are one JSON object.\n");
    } else {
      prompt.append("You are a coding agent working in the folder ").append(request.workingDirectory())
          .append(" of the project '").append(request.projectName()).append("'. You act only through your tools (")
          .append(String.join(", ", toolNames)).append("). Paths are relative to that folder and cannot leave it.\n")
          .append("Read files before you change them. edit_file replaces an exact piece of text, so copy it exactly, whitespace included. ")
          .append("Writing files and running commands may need the user's approval; when a tool call is refused, do not repeat it: ")
          .append("explain, or take another way. Tool arguments are one JSON object.\n")
          .append("When you are done, answer with a short summary of what you did and anything left open.\n");
    }
    if (request.context() != null && !request.context().isBlank()) {
      prompt.append("\n# Project and task\n\n").append(request.context().strip()).append('\n');
    }
    if (!request.priorSummaries().isEmpty()) {
      prompt.append("\n# Earlier sessions on this task (oldest first)\n");
      int number = 1;
      for (String summary : request.priorSummaries()) {
        prompt.append("\n## Session ").append(number++).append("\n\n").append(summary.strip()).append('\n');
      }
    }
    return prompt.toString();
  }
}
