package dev.roundhouse.app;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code roundhouse service}: groups the dev service commands. Not thread-safe (picocli command). */
@Command(
    name = "service",
    description = "List, start, stop, restart a project's dev services and read their logs.",
    mixinStandardHelpOptions = true,
    subcommands = {
      ServiceListCommand.class,
      ServiceActionCommand.Start.class,
      ServiceActionCommand.Stop.class,
      ServiceActionCommand.Restart.class,
      ServiceLogsCommand.class
    })
final class ServiceCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw Cli.missingCommand(spec);
  }
}
