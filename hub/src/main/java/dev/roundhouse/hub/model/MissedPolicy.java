package dev.roundhouse.hub.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Locale;

/** What a schedule does with firings that came due while the hub was down (or its clock jumped past them). */
public enum MissedPolicy {
  /** Record them as skipped; run none. */
  @JsonProperty("skip")
  SKIP,
  /** Run once for all of them together. */
  @JsonProperty("run_once")
  RUN_ONCE;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a stored name; an unknown one is a corrupt row, named. */
  public static MissedPolicy parse(String text) {
    for (MissedPolicy policy : values()) {
      if (policy.wireName().equals(text)) {
        return policy;
      }
    }
    throw new IllegalStateException("unknown missed policy '" + text + "' in the store");
  }

  @Override
  public String toString() {
    return wireName();
  }
}
