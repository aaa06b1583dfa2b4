package dev.roundhouse.hub.store;

import dev.roundhouse.hub.model.TaskStatus;
import java.util.Set;

/**
 * A filter over tasks; null or empty fields do not filter.
 *
 * @param text matched case-insensitively against title and description
 */
public record TaskQuery(
    Long project, Set<TaskStatus> statuses, String tag, String text, int limit, int offset) {

  public static TaskQuery inProject(long project) {
    return new TaskQuery(project, Set.of(), null, null, Integer.MAX_VALUE, 0);
  }
}
