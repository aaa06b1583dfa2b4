package dev.roundhouse.hub.spi;

import dev.roundhouse.hub.model.McpServerSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Collections;
import java.util.LinkedHashMap;

/**
 * What a driver is asked to do: answer {@code message} on a task, in the project's folder. Immutable.
 *
 * @param turnId the runner's id for this turn
 * @param taskId the task the turn works on
 * @param projectName the task's project
 * @param workingDirectory the folder the agent works in: the project's own, or where a module placed the task (its worktree)
 * @param message the user's message that starts the turn
 * @param context the project's context text and the task's title and description, for the system prompt
 * @param priorSummaries summaries of the task's earlier generations, oldest first, to seed a fresh session
 * @param resumeSessionId the session to resume (when the driver supports resume and there is one)
 * @param model the model to use, or null for the driver's default
 * @param permissionMode the agent permission mode, or null for the driver's default
 * @param unattended no human is watching: anything that would ask is refused instead
 * @param environment variables to add to the environment of every process started for the turn (the
 *     project's {@code PORT}, say; see {@link TurnPlace}), over the driver's own
 * @param systemPrompt the prompt of a turn that is not coding work, in place of the driver's own coding
 *     instructions, and with no workspace tools (see {@link TurnContributor#systemPrompt}); null for a coding
 *     task
 * @param mcpServers MCP servers a face gave for this turn (an ACP client's), to offer the agent next to the
 *     hub's own tools under their own names; their tools go through the permission gate like any other. Never
 *     stored: {@code env} and {@code headers} may hold secrets, so a driver writes them only where its agent
 *     reads them (a 0600 file, a request) and never logs them.
 */
public record TurnRequest(
    long turnId,
    long taskId,
    String projectName,
    Path workingDirectory,
    String message,
    String context,
    List<String> priorSummaries,
    String resumeSessionId,
    String model,
    String permissionMode,
    boolean unattended,
    Map<String, String> environment,
    String systemPrompt,
    List<McpServerSpec> mcpServers) {

  public TurnRequest {
    priorSummaries = List.copyOf(priorSummaries);
    environment = Collections.unmodifiableMap(new LinkedHashMap<>(environment));
    mcpServers = mcpServers == null ? List.of() : List.copyOf(mcpServers);
  }

  /** A request with no MCP servers from a face. */
  public TurnRequest(long turnId, long taskId, String projectName, Path workingDirectory, String message, String context,
      List<String> priorSummaries, String resumeSessionId, String model, String permissionMode, boolean unattended,
      Map<String, String> environment, String systemPrompt) {
    this(turnId, taskId, projectName, workingDirectory, message, context, priorSummaries, resumeSessionId, model,
        permissionMode, unattended, environment, systemPrompt, List.of());
  }

  /** This request with {@code servers} as its {@link #mcpServers}. */
  public TurnRequest withMcpServers(List<McpServerSpec> servers) {
    return new TurnRequest(turnId, taskId, projectName, workingDirectory, message, context, priorSummaries, resumeSessionId,
        model, permissionMode, unattended, environment, systemPrompt, servers);
  }

  /** A coding task's request. */
  public TurnRequest(long turnId, long taskId, String projectName, Path workingDirectory, String message, String context,
      List<String> priorSummaries, String resumeSessionId, String model, String permissionMode, boolean unattended,
      Map<String, String> environment) {
    this(turnId, taskId, projectName, workingDirectory, message, context, priorSummaries, resumeSessionId, model,
        permissionMode, unattended, environment, null);
  }

  /** Whether the turn is coding work: no contributor gave it a {@link #systemPrompt} of its own. */
  public boolean codingTask() {
    return systemPrompt == null;
  }

  /** A coding task's request with nothing added to the environment. */
  public TurnRequest(long turnId, long taskId, String projectName, Path workingDirectory, String message, String context,
      List<String> priorSummaries, String resumeSessionId, String model, String permissionMode, boolean unattended) {
    this(turnId, taskId, projectName, workingDirectory, message, context, priorSummaries, resumeSessionId, model,
        permissionMode, unattended, Map.of(), null);
  }
}
