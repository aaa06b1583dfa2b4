package dev.roundhouse.app;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code roundhouse decisions}: what needs you (tool permissions, agents' questions, settings drift, calendar
 * proposals, MCP sign-ins, exposed services) and answering it from a terminal. Not thread-safe (picocli command).
 */
@Command(
    name = "decisions",
    description = "List what needs you (permissions, questions, proposals, sign-ins) and answer it.",
    mixinStandardHelpOptions = true,
    subcommands = {DecisionsListCommand.class, DecisionsAnswerCommand.class})
final class DecisionsCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw Cli.missingCommand(spec);
  }
}
