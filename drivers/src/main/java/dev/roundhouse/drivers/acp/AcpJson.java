package dev.roundhouse.drivers.acp;

import com.agentclientprotocol.sdk.json.JacksonAcpJsonMapper;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The JSON mapping for ACP messages: the SDK's schema records, read leniently so that an agent newer than
 * the SDK (an unknown update kind, enum value or field) costs one update, not the session. Thread-safe.
 */
final class AcpJson {
  static final ObjectMapper MAPPER = JsonMapper.builder()
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .disable(DeserializationFeature.FAIL_ON_INVALID_SUBTYPE)
      .enable(DeserializationFeature.READ_UNKNOWN_ENUM_VALUES_AS_NULL)
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
