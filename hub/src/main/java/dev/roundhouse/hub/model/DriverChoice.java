package dev.roundhouse.hub.model;

import dev.roundhouse.hub.core.RoundhouseException;
import java.util.List;
import java.util.Optional;

/**
 * Which driver runs a task's turns: the one a caller asks for, else the task's agent, else its project's
 * default agent. The one statement of that rule: the runner applies it to start a turn, and a face that
 * shows "the current driver" (the ACP face's mode) reads it from here rather than deciding for itself.
 * A blank name counts as none. Stateless.
 */
public final class DriverChoice {
  private DriverChoice() {}

  /**
   * The driver for a turn of {@code task} in {@code project}.
   *
   * @param requested the driver the caller asked for, or null (or blank) for none
   * @return empty when neither the request, the task nor the project names one
   */
  public static Optional<String> of(String requested, Task task, Project project) {
    return named(requested).or(() -> named(task.agent())).or(() -> named(project.defaultAgent()));
  }

  /** The driver for {@code task}'s next turn when the caller asks for none. */
  public static Optional<String> of(Task task, Project project) {
    return of(null, task, project);
  }

  /**
   * The driver for a turn, or the refusal naming the choices when there is none.
   *
   * @param drivers the ids of the drivers the hub has, for the refusal
   * @throws RoundhouseException.InvalidInput {@link #none} when neither names a driver
   */
  public static String require(String requested, Task task, Project project, List<String> drivers) {
    return of(requested, task, project).orElseThrow(() -> new RoundhouseException.InvalidInput(none(task, project, drivers)));
  }

  /**
   * The sentence for a task that names no driver in a project with no default agent, naming the choices:
   * {@code task 4 names no driver and project web has no default agent; pass driver (one of claude, codex)}.
   */
  public static String none(Task task, Project project, List<String> drivers) {
    return "task " + task.id() + " names no driver and project " + project.name() + " has no default agent; pass driver"
        + (drivers.isEmpty() ? "" : " (one of " + String.join(", ", drivers) + ")");
  }

  private static Optional<String> named(String driver) {
    return driver == null || driver.isBlank() ? Optional.empty() : Optional.of(driver);
  }
}
