package dev.roundhouse.services;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a definition's command into the argv that is executed. A shell is used only when the command line
 * needs one: plain words with {@code $NAME} or {@code ${NAME}} references are expanded from the service's
 * environment here and executed directly, so {@code python3 -m http.server $PORT} runs python itself (its
 * pid is the group leader, it gets signals first-hand). Anything else (pipes, quotes, globs, redirections,
 * {@code &&}, assignments) runs as {@code /bin/sh -c LINE}. Stateless; thread-safe.
 */
final class CommandLine {
  private static final Pattern VARIABLE = Pattern.compile("\\$(?:([A-Za-z_][A-Za-z0-9_]*)|\\{([A-Za-z_][A-Za-z0-9_]*)})");
  private static final String SHELL_SYNTAX = "|&;<>()`\\\"'*?[]#~{}$\n";

  private CommandLine() {}

  static List<String> argv(ServiceDefinition definition, Map<String, String> env) {
    if (!definition.argv().isEmpty()) {
      return definition.argv();
    }
    String line = definition.shell().strip();
    return needsShell(line) ? List.of("/bin/sh", "-c", line) : expand(line, env);
  }

  static boolean needsShell(String line) {
    String withoutVariables = VARIABLE.matcher(line).replaceAll("");
    for (char c : withoutVariables.toCharArray()) {
      if (SHELL_SYNTAX.indexOf(c) >= 0) {
        return true;
      }
    }
    String firstWord = line.split("\\s+", 2)[0];
    return firstWord.contains("=");
  }

  private static List<String> expand(String line, Map<String, String> env) {
    List<String> argv = new ArrayList<>();
    for (String word : line.split("\\s+")) {
      Matcher matcher = VARIABLE.matcher(word);
      StringBuilder expanded = new StringBuilder();
      while (matcher.find()) {
        String name = matcher.group(1) != null ? matcher.group(1) : matcher.group(2);
        matcher.appendReplacement(expanded, Matcher.quoteReplacement(env.getOrDefault(name, "")));
      }
      matcher.appendTail(expanded);
      // As in sh, an unquoted word that expands to nothing is no argument at all.
      if (!expanded.isEmpty()) {
        argv.add(expanded.toString());
      }
    }
    return argv;
  }
}
