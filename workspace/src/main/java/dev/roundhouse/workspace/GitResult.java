package dev.roundhouse.workspace;

/** What a finished git child process said. Immutable; thread-safe. */
record GitResult(int exitCode, String stdout, String stderr) {

  boolean ok() {
    return exitCode == 0;
  }

  /** The last meaningful stderr lines, for an error sentence. */
  String why() {
    String text = stderr.isBlank() ? stdout : stderr;
    text = text.strip().replaceAll("\\s*\\n\\s*", "; ");
    return text.isEmpty() ? "exit code " + exitCode : text + " (exit code " + exitCode + ")";
  }
}
