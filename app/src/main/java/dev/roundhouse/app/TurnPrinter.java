package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * Prints a task's turn events as a conversation for a terminal, as they stream: the user's message,
 * assistant text as it arrives (a {@code turn.message} only completes what the deltas already showed),
 * tool calls with their output and result, denials, usage, errors and how the turn ended. Events it has no
 * words for are skipped.
 *
 * <pre>
 * you&gt; script:demo
 * I'll start with the cart code and the failing test.
 *   [Read] src/cart.js
 *   = export function total(cart) { (+4 lines)
 *   [Bash] npm test
 *   | ok 1 - total: applies the discount before tax
 *   = 3 tests, 3 passed
 * </pre>
 *
 * <p>Not thread-safe: one thread prints; it remembers whether the cursor is mid-line.
 */
final class TurnPrinter {
  private static final int RESULT_WIDTH = 100;

  private final PrintWriter out;
  private boolean midLine;
  private boolean streamed;

  TurnPrinter(PrintWriter out) {
    this.out = out;
  }

  /** Prints one event of the hub's stream (the full event: {@code type}, {@code data}, …). */
  void print(JsonNode event) {
    JsonNode data = event.path("data");
    switch (event.path("type").asText()) {
      case "turn.user_message" -> line("you> " + data.path("text").asText());
      case "turn.text_delta" -> {
        String text = data.path("text").asText();
        out.print(text);
        out.flush();
        streamed = true;
        midLine = !text.isEmpty() ? !text.endsWith("\n") : midLine;
      }
      case "turn.message" -> {
        if (streamed) {
          endLine();
        } else {
          line(data.path("text").asText());
        }
        streamed = false;
      }
      case "turn.tool_call" -> line("  [" + data.path("tool").asText() + "] " + describe(data.path("input")));
      case "turn.tool_output" -> {
        for (String outputLine : data.path("text").asText().split("\n", -1)) {
          if (!outputLine.isEmpty()) {
            line("  | " + outputLine);
          }
        }
      }
      case "turn.tool_result" ->
          line("  " + (data.path("is_error").asBoolean() ? "! " : "= ") + firstLine(data.path("output").asText()));
      case "turn.permission_denied" -> line("  x denied: " + data.path("reason").asText());
      case "turn.usage" -> line(usage(data));
      case "turn.error" -> line("error: " + data.path("message").asText());
      case "turn.ended" -> {
        String reason = data.path("reason").asText("");
        line("turn " + data.path("turn").asLong() + " " + data.path("status").asText()
            + (reason.isEmpty() ? "" : ": " + reason));
      }
      default -> {}
    }
    out.flush();
  }

  /** Prints a line of its own, first ending any streamed text still on the current line. */
  void line(String text) {
    endLine();
    out.println(text);
    out.flush();
  }

  /** Starts a prompt on a line of its own and leaves the cursor after it. */
  void prompt(String text) {
    endLine();
    out.print(text);
    out.flush();
    midLine = true;
  }

  /** Ends a {@link #prompt} line with {@code text}, such as the answer that was read. */
  void finishPrompt(String text) {
    out.println(text);
    out.flush();
    midLine = false;
  }

  /** Records that the cursor is at the start of a line (a terminal echoed a typed answer and its newline). */
  void lineEnded() {
    midLine = false;
  }

  /** Moves to a fresh line, when the cursor is mid-line. */
  void endLine() {
    if (midLine) {
      out.println();
      midLine = false;
    }
  }

  /** The one-line gist of a tool's input: its command, file, or pattern, else the input itself. */
  static String describe(JsonNode input) {
    if (input.path("command").isTextual()) {
      return input.get("command").asText();
    }
    if (input.path("file_path").isTextual()) {
      return input.get("file_path").asText();
    }
    if (input.path("pattern").isTextual()) {
      return input.get("pattern").asText() + (input.path("path").isTextual() ? " in " + input.get("path").asText() : "");
    }
    return input.isMissingNode() || input.isEmpty() ? "" : Texts.abbreviate(input.toString(), RESULT_WIDTH);
  }

  private static String firstLine(String text) {
    String trimmed = text.strip();
    int newline = trimmed.indexOf('\n');
    if (newline < 0) {
      return Texts.abbreviate(trimmed, RESULT_WIDTH);
    }
    long more = trimmed.substring(newline).lines().count() - 1;
    return Texts.abbreviate(trimmed.substring(0, newline), RESULT_WIDTH) + " (+" + Texts.count((int) more, "line") + ")";
  }

  private static String usage(JsonNode data) {
    String tokens = data.path("input_tokens").asLong() + " in, " + data.path("output_tokens").asLong() + " out";
    JsonNode cost = data.path("cost_usd");
    String dollars = cost.isNumber()
        ? String.format(Locale.ROOT, "; $%.4f%s", cost.asDouble(), data.path("cost_estimated").asBoolean() ? " (estimated)" : "")
        : "";
    return "  (tokens: " + tokens + dollars + ")";
  }
}
