package dev.roundhouse.hub.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.FailureLog;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maps errors onto HTTP: a status, a machine code and a sentence naming what was wrong. Internal failures
 * are logged with a reference and answered without a stack trace. Stateless.
 */
final class HttpErrors {
  private static final Logger log = LoggerFactory.getLogger(HttpErrors.class);

  private HttpErrors() {}

  static int status(RoundhouseException e) {
    return switch (e) {
      case RoundhouseException.NotFound n -> 404;
      case RoundhouseException.InvalidInput i -> switch (i.code()) {
        case "body_too_large" -> 413;
        case "unsupported_media_type" -> 415;
        default -> 400;
      };
      case RoundhouseException.Conflict c -> 409;
      case RoundhouseException.Forbidden f -> f.code().equals("unauthorized") ? 401 : 403;
      case RoundhouseException.HomeLocked h -> 409;
      default -> switch (e.code()) {
        case "store_closed", "interrupted" -> 503;
        case "stop_timeout" -> 504; // another hub worker did not end its turn in time
        case "method_not_allowed" -> 405;
        default -> 500;
      };
    };
  }

  static void send(HttpServerExchange exchange, Throwable failure) {
    if (failure instanceof RoundhouseException known) {
      send(exchange, status(known), known.code(), known.getMessage());
      return;
    }
    String ref = FailureLog.logged(log, "internal error on " + exchange.getRequestMethod() + " " + exchange.getRequestPath(), failure);
    send(exchange, 500, "internal_error", "internal error; the hub log has the details under reference " + ref);
  }

  static void send(HttpServerExchange exchange, int status, String code, String message) {
    if (exchange.isResponseStarted()) {
      exchange.endExchange();
      return;
    }
    ObjectNode body = Json.mapper().createObjectNode();
    ObjectNode error = body.putObject("error");
    error.put("status", status);
    error.put("code", code);
    error.put("message", message);
    exchange.setStatusCode(status);
    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json; charset=utf-8");
    exchange.getResponseSender().send(Json.write(body) + "\n", StandardCharsets.UTF_8);
  }
}
