package dev.roundhouse.lspbridge.lsp;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.math.BigDecimal;
import java.util.Optional;
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseError;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;

/**
 * Reads one request's params and refuses bad ones with a -32602 error that names the method and the field
 * ({@code roundhouse/board: params.project must be a string (a project id or name)}). Immutable.
 */
final class Params {
  private final String method;
  private final JsonObject object;

  private Params(String method, JsonObject object) {
    this.method = method;
    this.object = object;
  }

  /**
   * The params of {@code method}: absent or null reads as {@code {}}; an array holding one value (the params
   * by position) reads as that value; anything but an object is refused.
   */
  static Params of(String method, JsonElement params) {
    JsonElement value = params;
    if (value != null && value.isJsonArray()) {
      JsonArray array = value.getAsJsonArray();
      if (array.size() != 1) {
        throw invalid(method + ": params must be an object (named params), not an array of " + array.size() + ": " + describe(array));
      }
      value = array.get(0);
    }
    if (value == null || value.isJsonNull()) {
      return new Params(method, new JsonObject());
    }
    if (!value.isJsonObject()) {
      throw invalid(method + ": params must be an object, not " + describe(value));
    }
    return new Params(method, value.getAsJsonObject());
  }

  JsonObject object() {
    return object;
  }

  /** A required non-empty string. */
  String string(String field, String what) {
    return optionalString(field, what).orElseThrow(() -> missing(field, "a string (" + what + ")"));
  }

  Optional<String> optionalString(String field, String what) {
    JsonElement value = present(field);
    if (value == null) {
      return Optional.empty();
    }
    if (!(value instanceof JsonPrimitive primitive) || !primitive.isString() || primitive.getAsString().isBlank()) {
      throw invalid(method + ": params." + field + " must be a non-empty string (" + what + "), not " + describe(value));
    }
    return Optional.of(primitive.getAsString());
  }

  /** A project given by id or name: a string, or a number that is sent as its text. */
  String idOrName(String field, String what) {
    JsonElement value = present(field);
    if (value instanceof JsonPrimitive primitive && primitive.isNumber()) {
      return Long.toString(wholeNumber(field, value));
    }
    return string(field, what);
  }

  /** A required whole number ≥ 0. */
  long number(String field, String what) {
    return optionalNumber(field, what).orElseThrow(() -> missing(field, "a whole number (" + what + ")"));
  }

  Optional<Long> optionalNumber(String field, String what) {
    JsonElement value = present(field);
    return value == null ? Optional.empty() : Optional.of(wholeNumber(field, value));
  }

  /** An optional JSON object. */
  Optional<JsonObject> optionalObject(String field) {
    JsonElement value = present(field);
    if (value == null) {
      return Optional.empty();
    }
    if (!value.isJsonObject()) {
      throw invalid(method + ": params." + field + " must be an object, not " + describe(value));
    }
    return Optional.of(value.getAsJsonObject());
  }

  private long wholeNumber(String field, JsonElement value) {
    if (value instanceof JsonPrimitive primitive && primitive.isNumber()) {
      try {
        long number = new BigDecimal(primitive.getAsString()).longValueExact();
        if (number >= 0) {
          return number;
        }
      } catch (ArithmeticException | NumberFormatException e) {
        // described below
      }
    }
    throw invalid(method + ": params." + field + " must be a whole number ≥ 0, not " + describe(value));
  }

  private JsonElement present(String field) {
    JsonElement value = object.get(field);
    return value == null || value.isJsonNull() ? null : value;
  }

  private ResponseErrorException missing(String field, String what) {
    return invalid(method + ": params." + field + " is required: " + what);
  }

  static ResponseErrorException invalid(String message) {
    return new ResponseErrorException(new ResponseError(ResponseErrorCode.InvalidParams, message, null));
  }

  private static String describe(JsonElement value) {
    String text = value.toString();
    return text.length() > 40 ? text.substring(0, 40) + "…" : text;
  }
}
