package dev.roundhouse.hub.turns;

import java.nio.file.Path;
import java.util.List;

/**
 * What a driver is asked to do: answer {@code message} on a task, in the project's folder. Immutable.
 *
 * @param turnId the runner's id for this turn
 * @param taskId the task the turn works on
 * @param projectName the task's project
 * @param workingDirectory the folder the agent works in (the project's repository)
 * @param message the user's message that starts the turn
 * @param context the project's context text and the task's title and description, for the system prompt
 * @param priorSummaries summaries of the task's earlier generations, oldest first, to seed a fresh session
 * @param resumeSessionId the session to resume (when the driver supports resume and there is one)
 * @param model the model to use, or null for the driver's default
 * @param permissionMode the agent permission mode, or null for the driver's default
 * @param unattended no human is watching: anything that would ask is refused instead
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
    boolean unattended) {

  public TurnRequest {
    priorSummaries = List.copyOf(priorSummaries);
  }
}
