/**
 * The typed client of a running hub, over its HTTP API: {@link dev.roundhouse.hubclient.RemoteHub} (one
 * method per operation, on the hub's API records), {@link dev.roundhouse.hubclient.HubHttp} (operations and
 * event streams as text, with the bearer token, found again after the hub restarts), the event stream
 * ({@link dev.roundhouse.hubclient.SseReader}, {@link dev.roundhouse.hubclient.EventFollower}) and the
 * reconnect pause ({@link dev.roundhouse.hubclient.ReconnectPause}). Used by the CLI and the editor faces
 * (LSP, ACP). It speaks only the hub's API records ({@code core}, {@code model}, {@code events},
 * {@code ops}, {@code api}); {@code ModuleBoundariesTest} checks that.
 */
package dev.roundhouse.hubclient;
