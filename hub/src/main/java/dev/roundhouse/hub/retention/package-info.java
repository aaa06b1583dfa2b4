/**
 * The retention policy: the events of finished (done or cancelled), cold tasks are pruned, never those of a
 * task something still holds on to (queued messages, a running or lingering turn, a pending decision, a
 * schedule run in flight, a module's record of the task), and the database file is shrunk afterwards. See
 * {@code docs/retention.md}.
 */
package dev.roundhouse.hub.retention;
