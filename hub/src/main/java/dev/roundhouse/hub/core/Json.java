package dev.roundhouse.hub.core;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The one Jackson configuration Roundhouse uses on the wire and in the store: snake_case names, ISO-8601
 * instants, nulls left out, unknown properties refused.
 *
 * <p>Thread-safe: the mapper is configured once and never changed.
 */
public final class Json {
  private static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .addModule(new JavaTimeModule())
          .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
          .defaultPropertyInclusion(JsonInclude.Value.construct(JsonInclude.Include.NON_NULL, JsonInclude.Include.NON_NULL))
          .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
          .build();

  /**
   * What the faces read a request body with: one JSON value and nothing after it (no {@code {...} garbage}, no
   * two objects back to back), and no key twice in an object, so that no part of a message is silently dropped.
   */
  private static final ObjectReader STRICT =
      MAPPER.reader()
          .with(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private Json() {}

  /**
   * Reads {@code body} as exactly one JSON value, refusing trailing content and duplicate keys.
   *
   * @throws JsonProcessingException naming what was wrong and where
   */
  public static JsonNode readStrict(byte[] body) throws JsonProcessingException {
    try {
      return STRICT.readTree(body);
    } catch (JsonProcessingException e) {
      throw e;
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail to read
    }
  }

  /**
   * The first string in {@code value} (a key or a text, depth first) that a UTF-8 store cannot hold: one with a
   * lone UTF-16 surrogate (such as JSON's {@code "\ud800"}), which would otherwise be stored as {@code '?'}.
   * Returns a sentence naming its path ({@code $.title}) and the position, or null when every string is whole.
   */
  public static String unstorableText(JsonNode value) {
    return unstorable(value, "$");
  }

  private static String unstorable(JsonNode value, String path) {
    if (value.isTextual()) {
      int at = loneSurrogate(value.textValue());
      return at < 0 ? null : path + " holds a lone UTF-16 surrogate (U+" + Integer.toHexString(value.textValue().charAt(at)).toUpperCase(java.util.Locale.ROOT)
          + " at character " + at + "), which is not Unicode text; send the character whole (a surrogate pair) or leave it out";
    }
    if (value.isArray()) {
      for (int i = 0; i < value.size(); i++) {
        String found = unstorable(value.get(i), path + "[" + i + "]");
        if (found != null) {
          return found;
        }
      }
    } else if (value.isObject()) {
      for (Map.Entry<String, JsonNode> field : value.properties()) {
        int at = loneSurrogate(field.getKey());
        if (at >= 0) {
          return path + " has a key with a lone UTF-16 surrogate at character " + at + ", which is not Unicode text";
        }
        String found = unstorable(field.getValue(), path + "." + field.getKey());
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }

  /** The index of the first unpaired surrogate in {@code text}, or -1. */
  private static int loneSurrogate(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)) {
        if (i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
          i++;
        } else {
          return i;
        }
      } else if (Character.isLowSurrogate(c)) {
        return i;
      }
    }
    return -1;
  }

  public static ObjectMapper mapper() {
    return MAPPER;
  }

  public static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static JsonNode tree(Object value) {
    return MAPPER.valueToTree(value);
  }

  public static <T> T read(String text, Class<T> type) {
    try {
      return MAPPER.readValue(text, type);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
