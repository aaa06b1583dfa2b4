package dev.roundhouse.hub.decisions;

import dev.roundhouse.hub.core.RoundhouseException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import dev.roundhouse.hub.model.PermissionRule;

/**
 * What a remembered rule allows. A rule for a non-shell tool allows that tool. A rule for a shell tool is a
 * command prefix, matched word by word ({@code npm test} allows {@code npm test -- --watch}, not {@code
 * npm testify}); a command with shell operators ({@code ;}, {@code &&}, {@code |}, {@code $(…)}, …) is
 * never allowed by a prefix, since {@code git status; rm -rf ~} starts with {@code git status}. Prefixes
 * that would allow too much are refused with the reason. Stateless.
 */
public final class PermissionRules {
  private static final Pattern OPERATORS = Pattern.compile("[;&|<>`$(){}\\n\\r\\\\]");
  private static final Set<String> RUNS_OTHER_COMMANDS = Set.of(
      "sh", "bash", "zsh", "fish", "dash", "ksh", "env", "sudo", "doas", "su", "xargs", "exec", "eval",
      "command", "nohup", "time", "timeout", "nice", "watch", "ssh", "chroot", "setsid", "busybox");
  private static final Set<String> INTERPRETERS = Set.of(
      "python", "python3", "node", "ruby", "perl", "php", "deno", "bun", "npx", "pnpx", "bunx", "java",
      "lua", "Rscript", "osascript", "powershell", "pwsh");
  private static final Set<String> SAFE_ALONE = Set.of(
      "ls", "pwd", "echo", "date", "whoami", "which", "wc", "head", "tail", "grep", "rg", "tree", "du",
      "df", "diff", "stat", "file", "uname", "cat");

  private PermissionRules() {}

  /** The words of a command line, split on white space. */
  static List<String> words(String command) {
    String trimmed = command.strip();
    return trimmed.isEmpty() ? List.of() : Arrays.asList(trimmed.split("\\s+"));
  }

  /**
   * Checks that {@code prefix} is a rule a human may reasonably keep, returning it normalised.
   *
   * @throws RoundhouseException.InvalidInput naming why it is too broad
   */
  public static String checkShellPrefix(String prefix) {
    List<String> words = words(prefix == null ? "" : prefix);
    if (words.isEmpty()) {
      throw new RoundhouseException.InvalidInput("rule_too_broad", "an empty command prefix would allow every command");
    }
    if (OPERATORS.matcher(prefix).find()) {
      throw new RoundhouseException.InvalidInput(
          "rule_too_broad", "the prefix '" + prefix.strip() + "' contains shell operators; a rule is a plain command prefix");
    }
    String first = words.getFirst();
    if (RUNS_OTHER_COMMANDS.contains(first)) {
      throw new RoundhouseException.InvalidInput(
          "rule_too_broad", "'" + first + "' runs other commands, so a rule starting with it would allow anything");
    }
    if (words.size() == 1 && INTERPRETERS.contains(first)) {
      throw new RoundhouseException.InvalidInput(
          "rule_too_broad", "'" + first + "' alone runs any code; name what it runs, such as '" + first + " scripts/build'");
    }
    if (words.size() == 1 && !SAFE_ALONE.contains(first.toLowerCase(Locale.ROOT))) {
      throw new RoundhouseException.InvalidInput(
          "rule_too_broad", "'" + first + "' alone would allow all of its subcommands; name one, such as '" + first + " test'");
    }
    return String.join(" ", words);
  }

  /** True when {@code rule} allows a call of {@code tool} (with {@code command} for shell tools). */
  public static boolean allows(PermissionRule rule, String tool, String command) {
    if (!rule.tool().equals(tool)) {
      return false;
    }
    if (command == null) {
      return rule.prefix().isEmpty();
    }
    if (rule.prefix().isEmpty() || OPERATORS.matcher(command).find()) {
      return false;
    }
    List<String> want = words(rule.prefix());
    List<String> have = words(command);
    return have.size() >= want.size() && have.subList(0, want.size()).equals(want);
  }
}
