package dev.roundhouse.drivers.openai;

/**
 * What a tool call produced, as the model will read it. Immutable.
 *
 * @param output the text for the model (a result, or what went wrong)
 * @param isError the call failed: bad arguments, a refused permission, a failing operation or command
 * @param deniedReason why the permission gate refused the call, or null when it did not
 */
record ToolOutcome(String output, boolean isError, String deniedReason) {
  static ToolOutcome ok(String output) {
    return new ToolOutcome(output, false, null);
  }

  static ToolOutcome error(String output) {
    return new ToolOutcome(output, true, null);
  }

  static ToolOutcome denied(String tool, String reason) {
    return new ToolOutcome(
        "permission to use " + tool + " was denied: " + reason + ". Do not retry the same call; ask the user or take another way.",
        true,
        reason);
  }
}
