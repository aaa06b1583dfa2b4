/**
 * The services engine: managed dev services (definitions, a supervisor, restart policies, readiness),
 * process groups that are always reaped, stable per-project ports, bounded logs and PTY terminals.
 *
 * <p>Public types are small interfaces and Jackson-serialisable records; implementations are
 * package-private. Nothing here imports the hub: the extension that turns these calls into operations,
 * events and resources is written against the hub's SPI. See {@code docs/services.md}.
 */
package dev.roundhouse.services;
