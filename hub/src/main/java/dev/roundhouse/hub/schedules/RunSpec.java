package dev.roundhouse.hub.schedules;

import dev.roundhouse.hub.model.Priority;
import dev.roundhouse.hub.model.Runbook;
import dev.roundhouse.hub.model.Schedule;
import java.util.List;

/**
 * What one run is made of: the project, its first message and how to run it; a runbook's fields, or a
 * schedule's own prompt with the project's defaults. Immutable.
 *
 * @param driver null: the project's default
 */
record RunSpec(
    long projectId, String name, String prompt, String driver, String model, String permissionMode, Priority priority,
    List<String> tags, boolean sendContext) {

  RunSpec {
    tags = List.copyOf(tags);
  }

  static RunSpec of(Runbook runbook) {
    return new RunSpec(runbook.projectId(), runbook.name(), runbook.prompt(), runbook.driver(), runbook.model(),
        runbook.permissionMode(), runbook.priority(), runbook.tags(), runbook.sendContext());
  }

  /** A schedule with a prompt of its own: the project's default driver, normal priority, the project's context. */
  static RunSpec of(Schedule schedule) {
    return new RunSpec(schedule.projectId(), schedule.name(), schedule.prompt(), null, null, null, Priority.NORMAL,
        List.of(), true);
  }

  RunSpec withDriver(String newDriver, String newModel) {
    return new RunSpec(projectId, name, prompt, newDriver != null ? newDriver : driver, newModel != null ? newModel : model,
        permissionMode, priority, tags, sendContext);
  }
}
