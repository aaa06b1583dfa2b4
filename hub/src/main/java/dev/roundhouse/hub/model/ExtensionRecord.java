package dev.roundhouse.hub.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/**
 * One durable record of a capability module, as stored: a JSON value under a key in the module's namespace.
 * Immutable (the value is not copied: callers must not change it).
 */
public record ExtensionRecord(String namespace, String key, JsonNode value, Instant updatedAt) {}
