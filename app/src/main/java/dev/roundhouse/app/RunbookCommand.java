package dev.roundhouse.app;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code roundhouse runbook}: groups the runbook (saved prompt) commands. Not thread-safe (picocli command). */
@Command(
    name = "runbook",
    description = "List, show, add, change, delete and run runbooks: saved prompts with how to run them.",
    mixinStandardHelpOptions = true,
    subcommands = {
      RunbookListCommand.class,
      RunbookShowCommand.class,
      RunbookAddCommand.class,
      RunbookUpdateCommand.class,
      RunbookDeleteCommand.class,
      RunbookRunCommand.class
    })
final class RunbookCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw Cli.missingCommand(spec);
  }
}
