package dev.roundhouse.drivers.acp;

import com.agentclientprotocol.sdk.json.JacksonAcpJsonMapper;
import com.agentclientprotocol.sdk.spec.AcpSchema;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The JSON mapping for ACP messages: the SDK's schema records, read leniently so that an agent newer than
 * the SDK (an unknown update kind, enum value or field) costs one update, not the session.
 *
 * <p>The SDK (0.14.0) writes the discriminator of the polymorphic types we send twice ({@code
 * {"type":"text","type":"text",...}}, {@code {"outcome":"selected","outcome":"selected",...}}): its
 * records carry the property and its {@code @JsonTypeInfo} adds it again. Lenient parsers take the last
 * key; a strict one would refuse the message. The mix-ins below make the records' own property the type
 * id, so each appears once. Thread-safe.
 */
final class AcpJson {
  @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type", include = JsonTypeInfo.As.EXISTING_PROPERTY, visible = true)
  private interface TypeOnce {}

  @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "outcome", include = JsonTypeInfo.As.EXISTING_PROPERTY, visible = true)
  private interface OutcomeOnce {}

  static final ObjectMapper MAPPER = JsonMapper.builder()
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .disable(DeserializationFeature.FAIL_ON_INVALID_SUBTYPE)
      .enable(DeserializationFeature.READ_UNKNOWN_ENUM_VALUES_AS_NULL)
      .addMixIn(AcpSchema.ContentBlock.class, TypeOnce.class)
      .addMixIn(AcpSchema.RequestPermissionOutcome.class, OutcomeOnce.class)
      .build();
  static final JacksonAcpJsonMapper SDK_MAPPER = new JacksonAcpJsonMapper(MAPPER);

  private AcpJson() {}

  static JsonNode tree(Object value) {
    return value == null ? MAPPER.nullNode() : MAPPER.valueToTree(value);
  }

  static <T> T convert(Object value, Class<T> type) {
    return MAPPER.convertValue(value, type);
  }
}
