package dev.roundhouse.lspbridge;

import dev.roundhouse.hub.RoundhouseException;

/**
 * No hub could be reached: none is running for the home, or the one recorded there does not answer. The
 * message says which and how to fix it.
 */
public final class HubUnavailableException extends RoundhouseException {
  private static final long serialVersionUID = 1L;

  public HubUnavailableException(String message) {
    super("hub_unavailable", message);
  }

  public HubUnavailableException(String message, Throwable cause) {
    super("hub_unavailable", message, cause);
  }
}
