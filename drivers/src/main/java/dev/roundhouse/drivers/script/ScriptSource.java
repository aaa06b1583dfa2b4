package dev.roundhouse.drivers.script;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a message sent to the script driver into the script that answers it: the message itself when it
 * is a JSON object with {@code steps}, a bundled script for {@code script:NAME}, otherwise a short
 * streamed echo. Stateless.
 */
final class ScriptSource {
  /** The scripts shipped as resources beside this class, {@code NAME.json}. */
  static final List<String> BUNDLED = List.of("demo");

  static final String PREFIX = "script:";
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");
  private static final Pattern CHUNK = Pattern.compile("\\S+\\s*");
  private static final int MAX_ECHO_CHUNKS = 64;

  private ScriptSource() {}

  static Script forMessage(String message) {
    String trimmed = message == null ? "" : message.strip();
    if (trimmed.startsWith(PREFIX)) {
      return bundled(trimmed.substring(PREFIX.length()).strip());
    }
    if (trimmed.startsWith("{")) {
      JsonNode root;
      try {
        root = ScriptParser.readTree(trimmed);
      } catch (InvalidScriptException e) {
        if (trimmed.contains("\"steps\"")) {
          throw e; // meant as a script: say what is wrong rather than echo it
        }
        return echo(message);
      }
      if (root.isObject() && root.has("steps")) {
        return ScriptParser.parse(root);
      }
    }
    return echo(message);
  }

  static Script bundled(String name) {
    String known = "bundled scripts: " + String.join(", ", BUNDLED);
    if (!NAME.matcher(name).matches()) {
      throw new InvalidScriptException(
          "'" + PREFIX + name + "' does not name a bundled script (" + known + ")");
    }
    try (InputStream in = ScriptSource.class.getResourceAsStream(name + ".json")) {
      if (in == null) {
        throw new InvalidScriptException("no bundled script '" + name + "' (" + known + ")");
      }
      String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      try {
        return ScriptParser.parse(json);
      } catch (InvalidScriptException e) {
        throw new InvalidScriptException("bundled script '" + name + "': " + e.getMessage());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("reading bundled script '" + name + "'", e);
    }
  }

  /** "You said: …", streamed a word at a time, with an estimated (free) usage. */
  static Script echo(String message) {
    String said = message == null ? "" : message.strip();
    List<Step> steps = new ArrayList<>();
    if (said.isEmpty()) {
      steps.add(new Step.Text("You said nothing."));
    } else {
      steps.add(new Step.Text("You said: "));
      Matcher chunks = CHUNK.matcher(said);
      int start = 0;
      while (steps.size() < MAX_ECHO_CHUNKS && chunks.find()) {
        steps.add(new Step.Text(chunks.group()));
        start = chunks.end();
      }
      if (start < said.length()) {
        steps.add(new Step.Text(said.substring(start)));
      }
    }
    long tokens = Math.max(1, (said.length() + 3) / 4);
    steps.add(new Step.Usage(tokens, tokens + 3, 0.0, true));
    return new Script(null, null, steps);
  }
}
