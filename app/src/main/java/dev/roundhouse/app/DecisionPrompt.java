package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Asks a human on the terminal to answer a decision the hub opened, and returns the answer for {@code
 * decision_answer}. A permission reads {@code Allow Bash: npm test? [y]es / [a]lways / [N]o}: {@code y}
 * allows once, {@code a} always (the hub remembers a rule), anything else, an empty line or the end of
 * input denies. A question takes the typed text (an empty line picks the first option). With {@code
 * assumeYes} it allows once, or picks the first option, without reading.
 *
 * <p>Not thread-safe: one thread prompts.
 */
final class DecisionPrompt {
  private final TurnPrinter printer;
  private final BufferedReader input;
  private final boolean echoAnswers;
  private final boolean assumeYes;

  /**
   * @param echoAnswers print what was read after the prompt (input that is not a terminal does not show)
   */
  DecisionPrompt(TurnPrinter printer, BufferedReader input, boolean echoAnswers, boolean assumeYes) {
    this.printer = printer;
    this.input = input;
    this.echoAnswers = echoAnswers;
    this.assumeYes = assumeYes;
  }

  /** The answer to {@code decision} (a decision as the hub stores it), or empty for kinds it cannot ask. */
  Optional<String> answer(JsonNode decision) {
    List<String> options = new ArrayList<>();
    decision.path("options").forEach(option -> options.add(option.asText()));
    return switch (decision.path("kind").asText()) {
      case "permission" -> Optional.of(permission(decision.path("request")));
      case "question" -> Optional.of(question(decision.path("title").asText(), options));
      default -> {
        printer.line("decision " + decision.path("id").asLong() + " needs an answer: " + decision.path("title").asText());
        yield Optional.empty();
      }
    };
  }

  private String permission(JsonNode request) {
    String what = request.path("command").isTextual() ? request.get("command").asText()
        : request.path("description").isTextual() ? request.get("description").asText() : "use this tool";
    printer.prompt("Allow " + request.path("tool").asText() + ": " + what + "? [y]es / [a]lways / [N]o ");
    String reply = read("y").strip().toLowerCase(Locale.ROOT);
    return switch (reply) {
      case "y", "yes" -> "allow_once";
      case "a", "always" -> "allow_always";
      default -> "deny";
    };
  }

  private String question(String question, List<String> options) {
    String choices = options.isEmpty() ? "" : " (" + String.join(" / ", options) + ")";
    String fallback = options.isEmpty() ? "yes" : options.getFirst();
    printer.prompt(question + choices + " ");
    String reply = read(fallback).strip();
    return reply.isEmpty() ? fallback : reply;
  }

  /** A line from the human, or {@code yes} under {@code assumeYes}; empty at the end of input. */
  private String read(String yes) {
    if (assumeYes) {
      printer.finishPrompt(yes + " (--yes)");
      return yes;
    }
    String line;
    try {
      line = input.readLine();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the answer from standard input", e);
    }
    if (line == null) {
      printer.finishPrompt("(no answer: end of input)");
      return "";
    }
    if (echoAnswers) {
      printer.finishPrompt(line);
    } else {
      printer.lineEnded(); // the terminal echoed the answer and its newline
    }
    return line;
  }
}
