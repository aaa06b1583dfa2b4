package dev.roundhouse.hub.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import dev.roundhouse.hub.core.RoundhouseException;

/** The columns of the board, in board order. */
public enum TaskStatus {
  @JsonProperty("backlog")
  BACKLOG,
  @JsonProperty("todo")
  TODO,
  @JsonProperty("in_progress")
  IN_PROGRESS,
  @JsonProperty("review")
  REVIEW,
  @JsonProperty("done")
  DONE,
  @JsonProperty("cancelled")
  CANCELLED;

  /** The wire and store name, such as {@code in_progress}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a wire name, naming the valid ones when it is not one. */
  public static TaskStatus parse(String text) {
    for (TaskStatus status : values()) {
      if (status.wireName().equalsIgnoreCase(text.trim())) {
        return status;
      }
    }
    throw new RoundhouseException.InvalidInput(
        "unknown status '" + text + "': expected one of " + names());
  }

  static String names() {
    return Arrays.stream(values()).map(TaskStatus::wireName).collect(Collectors.joining(", "));
  }
}
