package dev.roundhouse.hub.ops;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.classmate.ResolvedType;
import java.util.List;
import java.util.Map;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.victools.jsonschema.generator.CustomDefinition;
import com.github.victools.jsonschema.generator.Option;
import com.github.victools.jsonschema.generator.OptionPreset;
import com.github.victools.jsonschema.generator.SchemaGenerator;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.generator.SchemaVersion;
import com.github.victools.jsonschema.module.jackson.JacksonModule;
import com.github.victools.jsonschema.module.jackson.JacksonOption;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;

/**
 * Derives JSON Schemas (draft 2020-12) from operation records, using the same naming rules as {@link Json},
 * so the published schema and the wire format cannot drift. Every schema is inlined (no {@code $ref}),
 * which the widest range of MCP clients and model APIs accept.
 *
 * <p>Thread-safe.
 */
final class Schemas {
  private static final PropertyNamingStrategies.NamingBase SNAKE =
      (PropertyNamingStrategies.NamingBase) PropertyNamingStrategies.SNAKE_CASE;

  /** The name of the field every paged operation's input takes its page size in. */
  static final String PAGE_LIMIT = "limit";

  private final SchemaGenerator generator;

  Schemas() {
    SchemaGeneratorConfigBuilder config =
        new SchemaGeneratorConfigBuilder(
            Json.mapper(), SchemaVersion.DRAFT_2020_12, OptionPreset.PLAIN_JSON);
    config.with(
        new JacksonModule(
            JacksonOption.RESPECT_JSONPROPERTY_REQUIRED,
            JacksonOption.FLATTENED_ENUMS_FROM_JSONPROPERTY));
    config.with(
        Option.FORBIDDEN_ADDITIONAL_PROPERTIES_BY_DEFAULT,
        Option.EXTRA_OPEN_API_FORMAT_VALUES,
        Option.INLINE_ALL_SCHEMAS);
    config.without(Option.SCHEMA_VERSION_INDICATOR);
    config
        .forFields()
        .withPropertyNameOverrideResolver(
            field -> {
              JsonProperty property = field.getAnnotationConsideringFieldAndGetter(JsonProperty.class);
              if (property != null && !property.value().isEmpty()) {
                return property.value();
              }
              return SNAKE.translate(field.getDeclaredName());
            });
    config
        .forTypesInGeneral()
        .withCustomDefinitionProvider(
            (type, context) -> {
              Class<?> erased = type.getErasedType();
              if (JsonNode.class.isAssignableFrom(erased)) {
                return new CustomDefinition(context.getGeneratorConfig().createObjectNode());
              }
              if (Map.class.isAssignableFrom(erased)) {
                // A map is an object whose keys are free (MCP server env, headers); its values keep their type.
                ObjectNode map = context.getGeneratorConfig().createObjectNode();
                map.put("type", "object");
                List<ResolvedType> parameters = type.typeParametersFor(Map.class);
                if (parameters.size() == 2 && parameters.get(1).getErasedType() == String.class) {
                  map.putObject("additionalProperties").put("type", "string");
                }
                return new CustomDefinition(map);
              }
              if (erased == Actor.class) {
                ObjectNode actor = context.getGeneratorConfig().createObjectNode();
                actor.put("type", "string");
                actor.put(
                    "description",
                    "who: 'user', 'agent:<task id>', 'client:<name>' or 'scheduler'");
                return new CustomDefinition(actor);
              }
              return null;
            });
    this.generator = new SchemaGenerator(config.build());
  }

  ObjectNode schemaOf(Class<?> type) {
    ObjectNode schema = generator.generateSchema(type);
    // One rule for every paged operation: a top-level field named limit is a whole number of at least 1 (absent
    // means the operation's default). It is in the published schema, and the registry validates input against that
    // schema, so no operation checks it itself and none can forget to (docs/operations.md says so in its preamble).
    // An integer node, not victools' BigDecimal, so the schema equals itself after a JSON round trip.
    if (schema.path("properties").path(PAGE_LIMIT) instanceof ObjectNode limit && "integer".equals(limit.path("type").asText())) {
      limit.put("minimum", 1);
    }
    return schema;
  }
}
