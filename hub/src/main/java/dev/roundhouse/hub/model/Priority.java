package dev.roundhouse.hub.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Locale;
import dev.roundhouse.hub.core.RoundhouseException;

/** How urgent a task is; {@link #NORMAL} unless said otherwise. */
public enum Priority {
  @JsonProperty("low")
  LOW,
  @JsonProperty("normal")
  NORMAL,
  @JsonProperty("high")
  HIGH,
  @JsonProperty("urgent")
  URGENT;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Priority parse(String text) {
    for (Priority priority : values()) {
      if (priority.wireName().equalsIgnoreCase(text.trim())) {
        return priority;
      }
    }
    throw new RoundhouseException.InvalidInput(
        "unknown priority '" + text + "': expected one of low, normal, high, urgent");
  }
}
