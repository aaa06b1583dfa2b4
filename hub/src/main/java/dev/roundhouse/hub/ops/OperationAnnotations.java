package dev.roundhouse.hub.ops;

/**
 * Hints about an operation's effect, as in MCP tool annotations.
 *
 * @param readOnly changes nothing
 * @param destructive may remove or overwrite what is stored
 * @param idempotent calling it again with the same input has no further effect
 */
public record OperationAnnotations(boolean readOnly, boolean destructive, boolean idempotent) {
  public static final OperationAnnotations READ = new OperationAnnotations(true, false, true);
  public static final OperationAnnotations CREATE = new OperationAnnotations(false, false, false);
  public static final OperationAnnotations UPDATE = new OperationAnnotations(false, false, true);
  public static final OperationAnnotations DESTRUCTIVE = new OperationAnnotations(false, true, true);

  /** The effect in words, as the CLI and the reference show it: "read-only, idempotent". */
  public String effect() {
    java.util.List<String> words = new java.util.ArrayList<>();
    words.add(readOnly ? "read-only" : "writes");
    if (destructive) {
      words.add("destructive");
    }
    if (idempotent) {
      words.add("idempotent");
    }
    return String.join(", ", words);
  }
}
