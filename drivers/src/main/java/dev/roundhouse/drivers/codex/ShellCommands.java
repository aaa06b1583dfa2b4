package dev.roundhouse.drivers.codex;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Codex runs every command as {@code /bin/bash -lc '<script>'}; the hub's remembered rules and the humans
 * who approve commands care about the script. Stateless.
 */
final class ShellCommands {
  private static final Pattern WRAPPED = Pattern.compile("^(?:/\\S*/)?(?:ba|z|da)?sh -l?c '(.*)'$", Pattern.DOTALL);

  private ShellCommands() {}

  /** The script inside a {@code bash -lc '...'} wrapper, or the command itself when it is not wrapped. */
  static String script(String command) {
    if (command == null) {
      return null;
    }
    Matcher matcher = WRAPPED.matcher(command.strip());
    if (!matcher.matches()) {
      return command;
    }
    String inner = matcher.group(1);
    // Inside the quotes a single quote is written '\'' ; any other quote means it was not one quoted word.
    if (inner.replace("'\\''", "").contains("'")) {
      return command;
    }
    return inner.replace("'\\''", "'");
  }

  /**
   * The script of an approval request: from its argv ({@code proposedExecpolicyAmendment}, such as {@code
   * ["/bin/bash", "-lc", "npm test"]}) when present, else from its command line.
   */
  static String scriptOf(JsonNode approvalParams) {
    JsonNode argv = approvalParams.path("proposedExecpolicyAmendment");
    if (argv.isArray() && argv.size() == 3 && argv.get(0).asText().endsWith("sh") && argv.get(1).asText().matches("-l?c")) {
      return argv.get(2).asText();
    }
    return script(approvalParams.path("command").asText(null));
  }
}
