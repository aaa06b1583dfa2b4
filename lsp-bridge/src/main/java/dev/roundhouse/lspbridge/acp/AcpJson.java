package dev.roundhouse.lspbridge.acp;

import com.agentclientprotocol.sdk.spec.AcpSchema;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.MapperConfig;
import com.fasterxml.jackson.databind.introspect.AnnotatedClass;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.introspect.JacksonAnnotationIntrospector;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.jsontype.TypeResolverBuilder;

/**
 * The one place the ACP face turns the ACP SDK's schema records ({@link AcpSchema}) into JSON: what it
 * answers and sends is built as those records and written here.
 *
 * <p>The SDK's polymorphic records ({@code SessionUpdate}, {@code ContentBlock}, {@code ToolCallContent},
 * {@code SessionConfigOption}) carry their discriminator twice: as a record component ({@code sessionUpdate},
 * {@code type}) and as a {@code @JsonTypeInfo} property of the same name, so Jackson writes the key twice
 * ({@code {"sessionUpdate":"plan","sessionUpdate":"plan",…}}), the SDK's own mapper included. This mapper
 * ignores {@code @JsonTypeInfo} on writing: the component alone says the type, once. It never reads.
 *
 * <p>Thread-safe: the mapper is configured once.
 */
final class AcpJson {
  private static final ObjectMapper WRITER =
      JsonMapper.builder()
          .annotationIntrospector(
              new JacksonAnnotationIntrospector() {
                private static final long serialVersionUID = 1L;

                @Override
                public TypeResolverBuilder<?> findTypeResolver(MapperConfig<?> config, AnnotatedClass type, JavaType baseType) {
                  return null; // the record's own discriminator component is written instead
                }

                @Override
                public TypeResolverBuilder<?> findPropertyTypeResolver(MapperConfig<?> config, AnnotatedMember member, JavaType baseType) {
                  return null;
                }
              })
          .defaultPropertyInclusion(JsonInclude.Value.construct(JsonInclude.Include.NON_NULL, JsonInclude.Include.NON_NULL))
          .build();

  private AcpJson() {}

  /** An SDK record (or a tree, or a map) as a JSON tree. */
  static JsonNode tree(Object value) {
    return value instanceof JsonNode node ? node : WRITER.valueToTree(value);
  }

  /** The SDK enum constant whose wire name is {@code value}, else {@code fallback}. */
  static <E extends Enum<E>> E constant(Class<E> type, String value, E fallback) {
    if (value == null) {
      return fallback;
    }
    try {
      E constant = WRITER.convertValue(value, type);
      return constant == null ? fallback : constant;
    } catch (IllegalArgumentException e) {
      return fallback;
    }
  }
}
