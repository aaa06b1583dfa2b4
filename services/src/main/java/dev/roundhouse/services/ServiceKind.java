package dev.roundhouse.services;

import com.fasterxml.jackson.annotation.JsonProperty;

/** What a service is for; it decides how the supervisor orders and waits for it. */
public enum ServiceKind {
  /** Runs to completion (migrations, installs) before the dev services that depend on it. */
  @JsonProperty("setup")
  SETUP,
  /** Long-running (a dev server, a database); dependants wait until it is ready. */
  @JsonProperty("dev")
  DEV,
  /** A test watcher or runner; started only on request. */
  @JsonProperty("test")
  TEST,
  /** Anything else; started only on request. */
  @JsonProperty("custom")
  CUSTOM
}
