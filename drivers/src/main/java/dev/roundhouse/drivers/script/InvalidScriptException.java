package dev.roundhouse.drivers.script;

import dev.roundhouse.hub.core.RoundhouseException;

/**
 * A script that cannot be played: not JSON, an unknown step kind, a field of the wrong type. The message
 * names the step ("step 3: unknown step kind 'tol' …"); a turn given such a script fails with it.
 */
final class InvalidScriptException extends RoundhouseException.InvalidInput {
  private static final long serialVersionUID = 1L;

  InvalidScriptException(String message) {
    super("invalid_script", message);
  }
}
