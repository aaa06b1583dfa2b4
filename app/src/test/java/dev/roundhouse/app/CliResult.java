package dev.roundhouse.app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * One run of the {@code roundhouse} command tree in this JVM, with its exit status and what it printed.
 * Immutable.
 */
record CliResult(int exit, String out, String err) {

  /** Runs {@code args} in {@code context}, capturing stdout and stderr. */
  static CliResult run(Context context, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = Cli.run(context, new PrintWriter(out), new PrintWriter(err), args);
    return new CliResult(exit, out.toString(), err.toString());
  }

  /** stdout parsed as one JSON value. */
  JsonNode json() {
    try {
      return Json.mapper().readTree(out);
    } catch (JsonProcessingException e) {
      throw new AssertionError("stdout is not JSON: " + out, e);
    }
  }

  @Override
  public String toString() {
    return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
  }
}
