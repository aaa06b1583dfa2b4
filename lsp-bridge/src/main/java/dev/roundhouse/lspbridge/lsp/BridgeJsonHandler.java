package dev.roundhouse.lspbridge.lsp;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import com.google.gson.stream.JsonReader;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.util.Map;
import java.util.regex.Pattern;
import org.eclipse.lsp4j.jsonrpc.MessageIssueException;
import org.eclipse.lsp4j.jsonrpc.json.JsonRpcMethod;
import org.eclipse.lsp4j.jsonrpc.json.MessageJsonHandler;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.jsonrpc.messages.Message;
import org.eclipse.lsp4j.jsonrpc.messages.MessageIssue;
import org.eclipse.lsp4j.jsonrpc.messages.NotificationMessage;
import org.eclipse.lsp4j.jsonrpc.messages.RequestMessage;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseMessage;

/**
 * LSP4J's message reader, made to answer every well-formed request. LSP4J maps a message's params onto the
 * method's Java parameter while it parses; when they do not fit (an array of two values for a one-object
 * method, a string where {@code InitializeParams} belongs) its stream reader only logs the failure, and the
 * request is never answered. Here, when LSP4J fails on a body that is well-formed JSON, the message is read
 * again from the JSON tree:
 *
 * <ul>
 *   <li>a method that reads its params itself (the {@code roundhouse/*} requests take a {@link JsonElement})
 *       gets them as sent, and refuses them with -32602 naming the field ({@link Params});
 *   <li>a method with typed params gets them mapped, or a -32602 issue naming the method and the field that
 *       does not fit: answered for a request, logged for a notification;
 *   <li>an answer from the client whose result does not fit fails the bridge's pending request.
 * </ul>
 *
 * <p>The body is read whole before parsing, so a failure in the middle of a long body never leaves its rest in
 * the stream to be read as the next message's headers. A body that is not JSON, or has no usable {@code id}
 * or {@code method}, fails as LSP4J has it (a -32700 answer when LSP4J read an id, else a log line).
 *
 * <p>Thread-safety: as {@link MessageJsonHandler}; LSP4J's reader thread is the only one parsing.
 */
final class BridgeJsonHandler extends MessageJsonHandler {
  private static final Pattern GSON_LOCATION = Pattern.compile("\\s+at (line \\d+ column \\d+ )?path \\S+");
  private static final int MAX_REASON = 120;

  BridgeJsonHandler(Map<String, JsonRpcMethod> supportedMethods) {
    super(supportedMethods);
  }

  @Override
  public Message parseMessage(Reader input) {
    String body = readWhole(input);
    try {
      return super.parseMessage(new StringReader(body));
    } catch (RuntimeException failure) {
      return readAgain(body, failure);
    }
  }

  /** The message read from the JSON tree, or {@code failure} again when the body is not a usable message. */
  private Message readAgain(String body, RuntimeException failure) {
    JsonObject message;
    try {
      JsonElement tree = JsonParser.parseString(body);
      if (!tree.isJsonObject()) {
        throw failure;
      }
      message = tree.getAsJsonObject();
    } catch (JsonParseException notJson) {
      throw failure;
    }
    JsonElement idValue = message.get("id");
    JsonElement methodValue = message.get("method");
    Either<String, Number> id = idValue == null ? null : id(idValue);
    if ((idValue != null && id == null) || (methodValue != null && !isString(methodValue))) {
      throw failure;
    }
    if (methodValue == null) {
      if (id == null || failure instanceof MessageIssueException) {
        throw failure;
      }
      ResponseMessage response = new ResponseMessage();
      response.setJsonHandler(this);
      response.setJsonrpc("2.0");
      response.setRawId(id);
      throw new MessageIssueException(
          response, new MessageIssue("the answer to request " + id.get() + " could not be read: " + reason(failure), ResponseErrorCode.ParseError.getValue()));
    }
    String method = methodValue.getAsString();
    Message stub = message(id, method, null);
    Object params = params(stub, method, message.get("params"));
    return message(id, method, params);
  }

  /**
   * The params as the method's handler takes them: as sent when it takes raw JSON (or has no known Java
   * parameter), else mapped onto its one parameter type (a one-value array unwrapped, as LSP4J does).
   */
  private Object params(Message stub, String method, JsonElement params) {
    if (params == null || params.isJsonNull()) {
      return null;
    }
    JsonRpcMethod rpcMethod = getJsonRpcMethod(method);
    Type[] types = rpcMethod == null ? new Type[0] : rpcMethod.getParameterTypes();
    if (types.length != 1 || types[0] == JsonElement.class) {
      return params;
    }
    String typeName = types[0] instanceof Class<?> type ? type.getSimpleName() : types[0].getTypeName();
    JsonElement value = params;
    if (params.isJsonArray()) {
      if (params.getAsJsonArray().size() != 1) {
        throw invalid(stub, method + ": params must be an object (" + typeName + "), not an array of " + params.getAsJsonArray().size());
      }
      value = params.getAsJsonArray().get(0);
    }
    JsonReader reader = new JsonReader(new StringReader(value.toString()));
    try {
      return getGson().fromJson(reader, types[0]);
    } catch (RuntimeException e) {
      String field = "params" + reader.getPath().substring(1);
      String reason = GSON_LOCATION.matcher(reason(e)).replaceAll("");
      throw invalid(stub, method + ": " + field + " does not fit " + typeName + ": " + shorten(reason));
    }
  }

  private Message message(Either<String, Number> id, String method, Object params) {
    if (id == null) {
      NotificationMessage notification = new NotificationMessage();
      notification.setJsonHandler(this);
      notification.setJsonrpc("2.0");
      notification.setMethod(method);
      notification.setParams(params);
      return notification;
    }
    RequestMessage request = new RequestMessage();
    request.setJsonHandler(this);
    request.setJsonrpc("2.0");
    request.setRawId(id);
    request.setMethod(method);
    request.setParams(params);
    return request;
  }

  private static MessageIssueException invalid(Message stub, String text) {
    return new MessageIssueException(stub, new MessageIssue(text, ResponseErrorCode.InvalidParams.getValue()));
  }

  /** A string or number id (an integer one as LSP4J reads it), or null when it is neither. */
  private static Either<String, Number> id(JsonElement id) {
    if (!(id instanceof JsonPrimitive primitive) || primitive.isBoolean()) {
      return null;
    }
    if (primitive.isString()) {
      return Either.forLeft(primitive.getAsString());
    }
    try {
      return Either.forRight(new BigDecimal(primitive.getAsString()).intValueExact());
    } catch (ArithmeticException e) {
      return Either.forRight(primitive.getAsNumber());
    }
  }

  private static boolean isString(JsonElement value) {
    return value instanceof JsonPrimitive primitive && primitive.isString();
  }

  /** The innermost cause's first line: Gson's own words, with its location. */
  private static String reason(Throwable failure) {
    Throwable root = failure;
    if (failure instanceof MessageIssueException issue && !issue.getIssues().isEmpty() && issue.getIssues().get(0).getCause() != null) {
      root = issue.getIssues().get(0).getCause();
    }
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String text = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    return text.lines().findFirst().orElse(text);
  }

  private static String shorten(String text) {
    return text.length() > MAX_REASON ? text.substring(0, MAX_REASON) + "…" : text;
  }

  private static String readWhole(Reader input) {
    StringWriter body = new StringWriter();
    try {
      input.transferTo(body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return body.toString();
  }
}
