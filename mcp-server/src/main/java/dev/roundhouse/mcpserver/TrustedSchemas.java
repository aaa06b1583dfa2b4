package dev.roundhouse.mcpserver;

import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import java.util.Map;

/**
 * The SDK's schema validator, answered "valid" every time: the operation registry already validates each
 * tool's input against its schema (with a sentence naming the offending field), and the output is the
 * registry's own typed record. It also keeps the SDK's default validator (built for a newer
 * json-schema-validator than the hub uses) off the class path's code paths. Stateless; thread-safe.
 */
final class TrustedSchemas implements JsonSchemaValidator {
  @Override
  public ValidationResponse validate(Map<String, Object> schema, Object structuredContent) {
    return ValidationResponse.asValid(null);
  }
}
