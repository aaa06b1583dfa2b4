package dev.roundhouse.services;

import java.util.Optional;

/**
 * The one unchecked error the services engine reports on purpose. Messages are sentences that name what
 * was wrong ("no service web", "port 21040 is held by pid 812 (python3 -m http.server 21040)").
 *
 * <p>Immutable; thread-safe.
 */
public class ServiceException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ServiceException(String message) {
    super(message);
  }

  public ServiceException(String message, Throwable cause) {
    super(message, cause);
  }

  /** A port a service needs is already bound by a process Roundhouse does not manage (or by another service). */
  public static final class PortInUse extends ServiceException {
    private static final long serialVersionUID = 1L;
    private final int port;
    private final transient PortHolder holder;

    public PortInUse(int port, PortHolder holder, String message) {
      super(message);
      this.port = port;
      this.holder = holder;
    }

    public int port() {
      return port;
    }

    /** Who holds the port, when the OS tells (another user's process or another namespace does not). */
    public Optional<PortHolder> holder() {
      return Optional.ofNullable(holder);
    }
  }
}
