package dev.roundhouse.drivers.openai;

/**
 * What a tool call produced, as the model will read it. Immutable.
 *
 * @param output the text for the model (a result, or what went wrong)
 * @param isError the call failed: bad arguments, a refused permission, a failing operation or command
 */
record ToolOutcome(String output, boolean isError) {
  static ToolOutcome ok(String output) {
    return new ToolOutcome(output, false);
  }

  static ToolOutcome error(String output) {
    return new ToolOutcome(output, true);
  }

  /** The gate refused the call (the gate has already recorded a {@code PermissionDenied}). */
  static ToolOutcome denied(String tool, String reason) {
    return error("permission to use " + tool + " was denied: " + reason + ". Do not retry the same call; ask the user or take another way.");
  }
}
