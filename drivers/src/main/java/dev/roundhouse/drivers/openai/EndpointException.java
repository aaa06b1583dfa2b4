package dev.roundhouse.drivers.openai;

import dev.roundhouse.hub.core.RoundhouseException;

/**
 * The endpoint could not be reached or did not answer as an OpenAI-compatible server should. The message
 * is one sentence for a human that names the endpoint ("OpenRouter answered 401: Invalid API key") and
 * never contains the key.
 *
 * <p>Immutable.
 */
final class EndpointException extends RoundhouseException {
  private static final long serialVersionUID = 1L;
  private final int status;

  /**
   * @param status the HTTP status the endpoint answered, or 0 when there was no answer
   */
  EndpointException(int status, String message) {
    super("endpoint_error", message);
    this.status = status;
  }

  EndpointException(String message, Throwable cause) {
    super("endpoint_error", message, cause);
    this.status = 0;
  }

  /** The HTTP status, or 0 when the endpoint gave none (no connection, a broken stream). */
  int status() {
    return status;
  }
}
