package dev.roundhouse.hub.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Locale;

/** What a schedule does when it fires while its previous run is still going. */
public enum OverlapPolicy {
  /** Record the firing as skipped. */
  @JsonProperty("skip")
  SKIP,
  /** Run it after the previous run ends, in order. */
  @JsonProperty("queue")
  QUEUE,
  /** Run it at once, beside the previous run (each run has a task of its own). */
  @JsonProperty("allow")
  ALLOW;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a stored name; an unknown one is a corrupt row, named. */
  public static OverlapPolicy parse(String text) {
    for (OverlapPolicy policy : values()) {
      if (policy.wireName().equals(text)) {
        return policy;
      }
    }
    throw new IllegalStateException("unknown overlap policy '" + text + "' in the store");
  }

  @Override
  public String toString() {
    return wireName();
  }
}
