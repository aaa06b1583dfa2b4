package dev.roundhouse.services;

import java.time.Instant;

/**
 * A snapshot of one service, as listed and as published on every status change.
 *
 * @param name the service
 * @param kind its kind
 * @param status where it is in its life
 * @param pid the process (group leader) of the current run, or null
 * @param exitCode how the last run ended, or null (running, never ran, or killed by a signal: see message)
 * @param restarts how many times it was restarted after exiting on its own since it was last started
 * @param port the project's {@code PORT} given to it
 * @param message a sentence for people ("exited with code 3; restarting in 2 s"), or null
 * @param since when it entered this status (from the supervisor's clock)
 * @param logOffset the offset the next log line will have
 * @param version increases with every change of this service, so a late snapshot can be told from a new one
 */
public record ServiceState(
    String name,
    ServiceKind kind,
    ServiceStatus status,
    Long pid,
    Integer exitCode,
    int restarts,
    int port,
    String message,
    Instant since,
    long logOffset,
    long version) {}
