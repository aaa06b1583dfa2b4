package dev.roundhouse.hub.core;

/**
 * The root of every error Roundhouse reports on purpose. Each carries a stable machine {@link #code()} that
 * faces map onto their own protocol (an HTTP status, a JSON-RPC error, a CLI exit code), and a message that
 * names what was wrong ("no task 42"), never just "invalid input".
 */
public class RoundhouseException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final String code;

  public RoundhouseException(String code, String message) {
    super(message);
    this.code = code;
  }

  public RoundhouseException(String code, String message, Throwable cause) {
    super(message, cause);
    this.code = code;
  }

  /** A stable snake_case code, such as {@code not_found} or {@code invalid_input}. */
  public String code() {
    return code;
  }

  /** Something named by the caller does not exist: an unknown task id, project or operation. */
  public static class NotFound extends RoundhouseException {
    private static final long serialVersionUID = 1L;

    public NotFound(String message) {
      super("not_found", message);
    }

    public NotFound(String code, String message) {
      super(code, message);
    }
  }

  /** The request itself is wrong: malformed JSON, a schema violation, a value out of range. */
  public static class InvalidInput extends RoundhouseException {
    private static final long serialVersionUID = 1L;

    public InvalidInput(String message) {
      super("invalid_input", message);
    }

    public InvalidInput(String code, String message) {
      super(code, message);
    }
  }

  /** The request is well formed but conflicts with what is stored: a cycle, a duplicate name, a stale edit. */
  public static class Conflict extends RoundhouseException {
    private static final long serialVersionUID = 1L;

    public Conflict(String message) {
      super("conflict", message);
    }
  }

  /** The actor may not do this: an agent editing a running task, a missing or wrong token. */
  public static class Forbidden extends RoundhouseException {
    private static final long serialVersionUID = 1L;

    public Forbidden(String code, String message) {
      super(code, message);
    }
  }

  /** Another hub process already owns this Roundhouse home. */
  public static class HomeLocked extends RoundhouseException {
    private static final long serialVersionUID = 1L;

    public HomeLocked(String message) {
      super("home_locked", message);
    }
  }
}
