package dev.roundhouse.hub.ops;

import com.fasterxml.jackson.databind.JsonNode;

/** What a face needs to publish an operation: its name, description, schemas and annotations. */
public record OperationDescriptor(
    String name,
    String description,
    JsonNode inputSchema,
    JsonNode outputSchema,
    OperationAnnotations annotations) {}
