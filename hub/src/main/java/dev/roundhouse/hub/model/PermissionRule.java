package dev.roundhouse.hub.model;

import dev.roundhouse.hub.core.Actor;
import java.time.Instant;

/**
 * A remembered "always allow" for a project: a tool, and for shell tools a command prefix. Immutable.
 *
 * @param prefix empty for non-shell tools; for a shell tool, the command prefix it allows
 */
public record PermissionRule(long id, long projectId, String tool, String prefix, Actor createdBy, Instant createdAt) {}
