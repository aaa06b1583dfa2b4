package dev.roundhouse.mcpserver;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import dev.roundhouse.hub.Hub;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Optional;

/**
 * The stdio relay's own answer to the client's {@code initialize}: what the hub's server would answer
 * ({@link ServerIdentity}, this build's version, the protocol version negotiated as the server does), written
 * before the relay has spoken to the hub, so a client is answered as soon as the JVM has read its first line.
 * The relay then opens the hub session with the same {@code initialize} and drops the hub's answer.
 *
 * <p>Only a plain {@code initialize} is answered here: exactly the members {@code jsonrpc} ({@code "2.0"}),
 * {@code id} (a string or a whole number), {@code method} and {@code params}, with {@code params.protocolVersion}
 * a string and {@code capabilities} and {@code clientInfo} objects, no key twice and nothing after the object.
 * Anything else is left to the hub, which answers it (or refuses it) as it answers any request.
 *
 * <p>It reads and writes with jackson-core's streaming API only: Jackson's {@code ObjectMapper} costs a fresh JVM
 * about half a second of CPU, which the relay then spends after the answer, not before.
 *
 * <p>Stateless; thread-safe.
 */
final class LocalInitialize {
  private static final JsonFactory JSON = JsonFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  private LocalInitialize() {}

  /** The answer line to {@code line} when it is a plain {@code initialize}; empty when the hub must answer it. */
  static Optional<String> answer(String line) {
    return answer(line, Hub.version());
  }

  static Optional<String> answer(String line, String version) {
    try (JsonParser parser = JSON.createParser(line)) {
      Request request = read(parser);
      if (request == null || parser.nextToken() != null) {
        return Optional.empty();
      }
      return Optional.of(write(request, version));
    } catch (IOException e) {
      return Optional.empty(); // not JSON: the hub's parse error is the answer
    }
  }

  /** The parts of an initialize the answer needs. */
  private record Request(Object id, String protocolVersion) {}

  private static Request read(JsonParser parser) throws IOException {
    if (parser.nextToken() != JsonToken.START_OBJECT) {
      return null;
    }
    Object id = null;
    String jsonrpc = null;
    String method = null;
    String protocolVersion = null;
    boolean params = false;
    for (JsonToken token = parser.nextToken(); token == JsonToken.FIELD_NAME; token = parser.nextToken()) {
      String name = parser.currentName();
      JsonToken value = parser.nextToken();
      switch (name) {
        case "jsonrpc" -> jsonrpc = value == JsonToken.VALUE_STRING ? parser.getText() : null;
        case "method" -> method = value == JsonToken.VALUE_STRING ? parser.getText() : null;
        case "id" -> id = value == JsonToken.VALUE_STRING ? parser.getText()
            : value == JsonToken.VALUE_NUMBER_INT && parser.getNumberType() != JsonParser.NumberType.BIG_INTEGER ? (Object) parser.getLongValue()
            : null;
        case "params" -> {
          if (value != JsonToken.START_OBJECT) {
            return null;
          }
          protocolVersion = readParams(parser);
          params = protocolVersion != null;
        }
        default -> {
          return null;
        }
      }
    }
    boolean plain = "2.0".equals(jsonrpc) && "initialize".equals(method) && id != null && params;
    return plain ? new Request(id, protocolVersion) : null;
  }

  /** The protocol version asked for, or null when the params are not an initialize's. */
  private static String readParams(JsonParser parser) throws IOException {
    String protocolVersion = null;
    boolean capabilities = false;
    boolean clientInfo = false;
    for (JsonToken token = parser.nextToken(); token == JsonToken.FIELD_NAME; token = parser.nextToken()) {
      String name = parser.currentName();
      JsonToken value = parser.nextToken();
      switch (name) {
        case "protocolVersion" -> protocolVersion = value == JsonToken.VALUE_STRING ? parser.getText() : null;
        case "capabilities" -> capabilities = value == JsonToken.START_OBJECT;
        case "clientInfo" -> clientInfo = value == JsonToken.START_OBJECT;
        default -> {
        }
      }
      parser.skipChildren();
    }
    return capabilities && clientInfo ? protocolVersion : null;
  }

  private static String write(Request request, String version) {
    StringWriter text = new StringWriter(512);
    try (JsonGenerator json = JSON.createGenerator(text)) {
      json.writeStartObject();
      json.writeStringField("jsonrpc", "2.0");
      if (request.id() instanceof Long number) {
        json.writeNumberField("id", number);
      } else {
        json.writeStringField("id", (String) request.id());
      }
      json.writeObjectFieldStart("result");
      json.writeStringField("protocolVersion", ServerIdentity.negotiate(request.protocolVersion()));
      json.writeObjectFieldStart("capabilities");
      json.writeObjectFieldStart("completions");
      json.writeEndObject();
      json.writeObjectFieldStart("logging");
      json.writeEndObject();
      json.writeObjectFieldStart("prompts");
      json.writeBooleanField("listChanged", false);
      json.writeEndObject();
      json.writeObjectFieldStart("resources");
      json.writeBooleanField("subscribe", true);
      json.writeBooleanField("listChanged", false);
      json.writeEndObject();
      json.writeObjectFieldStart("tools");
      json.writeBooleanField("listChanged", false);
      json.writeEndObject();
      json.writeEndObject();
      json.writeObjectFieldStart("serverInfo");
      json.writeStringField("name", ServerIdentity.NAME);
      json.writeStringField("title", ServerIdentity.TITLE);
      json.writeStringField("version", version);
      json.writeEndObject();
      json.writeStringField("instructions", ServerIdentity.INSTRUCTIONS);
      json.writeEndObject();
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter does not fail
    }
    return text.toString();
  }
}
