package dev.roundhouse.services;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Where a service is in its life. */
public enum ServiceStatus {
  /** Not running and not asked to run (never started, or stopped on request). */
  @JsonProperty("stopped")
  STOPPED,
  /** Asked to run: waiting for its dependencies, spawned and waiting to become ready. */
  @JsonProperty("starting")
  STARTING,
  /** Running and ready (its port opened, its log line matched, or it has no readiness check). */
  @JsonProperty("ready")
  READY,
  /** A stop was asked for; its process group is being terminated. */
  @JsonProperty("stopping")
  STOPPING,
  /** Exited on its own and will be restarted after a backoff. */
  @JsonProperty("backoff")
  BACKOFF,
  /** Exited on its own with code 0 (a setup service that finished) and will not be restarted. */
  @JsonProperty("exited")
  EXITED,
  /** Failed (non-zero exit, readiness timeout, port in use, a dependency failed) and will not be restarted. */
  @JsonProperty("failed")
  FAILED;

  /** Whether a process of the service may be alive in this status. */
  public boolean active() {
    return this == STARTING || this == READY || this == STOPPING;
  }
}
