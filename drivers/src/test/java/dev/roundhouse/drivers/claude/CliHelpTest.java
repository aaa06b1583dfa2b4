package dev.roundhouse.drivers.claude;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CliHelpTest {
  /** As {@code claude --help} 2.1.332 prints it at 80 columns (excerpt). */
  static final String HELP = """
      Options:
        --mcp-config <configs...>             Load MCP servers from JSON files or
                                              strings (space-separated)
        --model <model>                       Model for the current session. Use an
                                              alias for the latest model (e.g.
                                              'fable', 'opus', or 'sonnet') or a
                                              model's full name.
        -n, --name <name>                     Set a display name for this session
        --permission-mode <mode>              Permission mode to use for the session
                                              (choices: "acceptEdits", "auto",
                                              "bypassPermissions", "manual",
                                              "dontAsk", "plan")
        --permission-prompts <target>         Who answers permission prompts with
                                              --print: "host" (the SDK host or
                                              --permission-prompt-tool) or "none"
                                              (choices: "host", "none", default:
                                              "host")
        -p, --print                           Print response and exit

      Commands:
        agents [options]                      Manage background agents
      """;

  @Test
  void readsThePermissionModesAndModelAliasesOfThisVersion() {
    CliHelp help = CliHelp.parse(HELP);

    assertThat(help.permissionModes()).containsExactly("acceptEdits", "auto", "bypassPermissions", "manual", "dontAsk", "plan");
    assertThat(help.modelAliases()).containsExactly("fable", "opus", "sonnet");
  }

  @Test
  void aHelpWithoutTheOptionsYieldsNothing() {
    CliHelp help = CliHelp.parse("Usage: claude [options]\n  -v, --version  Output the version number\n");

    assertThat(help.permissionModes()).isEmpty();
    assertThat(help.modelAliases()).isEmpty();
  }

  @Test
  void wideHelpOnOneLinePerOptionParsesToo() {
    CliHelp help = CliHelp.parse("  --permission-mode <mode>  Permission mode (choices: \"default\", \"plan\")\n  --print  Print\n");

    assertThat(help.permissionModes()).containsExactly("default", "plan");
  }
}
