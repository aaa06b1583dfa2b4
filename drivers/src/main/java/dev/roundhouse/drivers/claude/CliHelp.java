package dev.roundhouse.drivers.claude;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code claude --help} tells about the installed version: the permission modes {@code
 * --permission-mode} accepts (its {@code choices}) and the model aliases {@code --model} names. Read from
 * the CLI rather than hard-coded, since both change between versions. Immutable.
 */
record CliHelp(List<String> permissionModes, List<String> modelAliases) {
  private static final Pattern OPTION_START = Pattern.compile("^\\s{0,4}-", Pattern.MULTILINE);
  private static final Pattern CHOICES = Pattern.compile("\\(choices:\\s*([^)]*)\\)");
  private static final Pattern QUOTED = Pattern.compile("\"([^\"]+)\"");
  private static final Pattern SINGLE_QUOTED = Pattern.compile("'([A-Za-z0-9][A-Za-z0-9._\\[\\]-]*)'");

  static final CliHelp NONE = new CliHelp(List.of(), List.of());

  CliHelp {
    permissionModes = List.copyOf(permissionModes);
    modelAliases = List.copyOf(modelAliases);
  }

  static CliHelp parse(String help) {
    List<String> modes = new ArrayList<>();
    String permission = option(help, "--permission-mode");
    Matcher choices = CHOICES.matcher(permission);
    if (choices.find()) {
      Matcher quoted = QUOTED.matcher(choices.group(1));
      while (quoted.find()) {
        modes.add(quoted.group(1));
      }
    }
    LinkedHashSet<String> aliases = new LinkedHashSet<>();
    Matcher quoted = SINGLE_QUOTED.matcher(option(help, "--model"));
    while (quoted.find()) {
      aliases.add(quoted.group(1));
    }
    return new CliHelp(modes, new ArrayList<>(aliases));
  }

  /** The text of one option's entry, wrapped lines joined with spaces; empty when the help has none. */
  private static String option(String help, String name) {
    Matcher start = Pattern.compile("^\\s{0,4}(?:-\\w, )?" + Pattern.quote(name) + "\\b", Pattern.MULTILINE).matcher(help);
    if (!start.find()) {
      return "";
    }
    int from = start.end();
    Matcher next = OPTION_START.matcher(help);
    int to = next.find(from) ? next.start() : help.length();
    int commands = help.indexOf("\nCommands:", from);
    if (commands >= 0 && commands < to) {
      to = commands;
    }
    return help.substring(from, to).replaceAll("\\s+", " ");
  }
}
