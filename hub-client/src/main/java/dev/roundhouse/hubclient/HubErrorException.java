package dev.roundhouse.hubclient;

import dev.roundhouse.hub.core.RoundhouseException;

/**
 * The hub answered with an error: its HTTP status, its stable code ({@code not_found},
 * {@code schema_violation}, …) and its sentence, which is this exception's message.
 */
public final class HubErrorException extends RoundhouseException {
  private static final long serialVersionUID = 1L;
  private final int status;

  public HubErrorException(int status, String code, String message) {
    super(code, message);
    this.status = status;
  }

  /** The HTTP status the hub answered with. */
  public int status() {
    return status;
  }
}
