package dev.roundhouse.hubclient;

import dev.roundhouse.hub.core.RoundhouseException;
import java.util.Objects;

/**
 * No hub could be reached: none is running for the home, the one recorded there does not answer, or the
 * connection was lost. The message says which and how to fix it; {@link #reason()} says it to code.
 */
public final class HubUnavailableException extends RoundhouseException {
  private static final long serialVersionUID = 1L;

  /** Why the hub could not be reached. */
  public enum Reason {
    /** No hub was found to connect to (none runs for the home). */
    NOT_FOUND,
    /** The hub's address refused the connection: the request was never sent. */
    REFUSED,
    /** No connection within {@link HubHttp#CONNECT_TIMEOUT}: the request was never sent. */
    NO_CONNECTION,
    /** The connection broke during the exchange: the hub may have done what was asked. */
    LOST,
    /** The waiting thread was interrupted (a cancelled call): the request was aborted. */
    INTERRUPTED
  }

  private final Reason reason;

  public HubUnavailableException(String message) {
    this(Reason.NOT_FOUND, message, null);
  }

  public HubUnavailableException(String message, Throwable cause) {
    this(Reason.NOT_FOUND, message, cause);
  }

  public HubUnavailableException(Reason reason, String message, Throwable cause) {
    super("hub_unavailable", message, cause);
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  public Reason reason() {
    return reason;
  }

  /** Whether the request never reached the hub, so sending it again cannot do anything twice. */
  public boolean neverSent() {
    return reason == Reason.NOT_FOUND || reason == Reason.REFUSED || reason == Reason.NO_CONNECTION;
  }
}
