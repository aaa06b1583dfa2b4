package dev.roundhouse.drivers.claude;

import dev.roundhouse.drivers.process.AgentCommand;
import dev.roundhouse.hub.spi.TurnRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The CLI's arguments for one long-lived session: the bidirectional {@code stream-json} mode with partial
 * messages and permission prompts on stdio, and the turn's resume id, model, permission mode, system-prompt
 * file and MCP configuration. Stateless; thread-safe.
 */
final class ClaudeCommandLine {
  private ClaudeCommandLine() {}

  /**
   * @param resumeSessionId the session to resume, or null for a fresh one
   * @param systemPrompt a file whose text is appended to the system prompt
   * @param mcpConfig the MCP configuration naming only the hub's endpoint
   */
  static List<String> build(
      AgentCommand command, TurnRequest request, String resumeSessionId, Optional<Path> systemPrompt, Optional<Path> mcpConfig) {
    List<String> args = new ArrayList<>(List.of(
        "-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose",
        "--include-partial-messages", "--permission-prompt-tool", "stdio"));
    if (resumeSessionId != null && !resumeSessionId.isBlank()) {
      args.addAll(List.of("--resume", resumeSessionId));
    }
    if (request.model() != null && !request.model().isBlank()) {
      args.addAll(List.of("--model", request.model()));
    }
    if (request.permissionMode() != null && !request.permissionMode().isBlank()) {
      args.addAll(List.of("--permission-mode", request.permissionMode()));
    }
    systemPrompt.ifPresent(file -> args.addAll(List.of("--append-system-prompt-file", file.toString())));
    mcpConfig.ifPresent(file -> args.addAll(List.of("--mcp-config", file.toString(), "--strict-mcp-config")));
    return command.commandLine(args);
  }

  /**
   * What the hub adds to Claude Code's system prompt: the turn's own prompt when the task is not coding work
   * ({@link TurnRequest#systemPrompt()}), the project's context and the task (from {@link
   * TurnRequest#context()}), then the summaries of the task's earlier sessions, oldest first.
   */
  static String systemPrompt(TurnRequest request) {
    StringBuilder text = new StringBuilder();
    if (!request.codingTask()) {
      text.append(request.systemPrompt().strip()).append("\n\n"); // a task that is not coding work: its own prompt first
    }
    if (request.context() != null && !request.context().isBlank()) {
      text.append("You are working on a task from the Roundhouse board.\n\n").append(request.context().strip()).append('\n');
    }
    if (!request.priorSummaries().isEmpty()) {
      text.append(text.isEmpty() ? "" : "\n").append("Summaries of this task's earlier sessions, oldest first:\n");
      int number = 1;
      for (String summary : request.priorSummaries()) {
        text.append('\n').append(number++).append(". ").append(summary.strip()).append('\n');
      }
    }
    return text.toString();
  }
}
