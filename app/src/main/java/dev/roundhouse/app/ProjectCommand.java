package dev.roundhouse.app;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code roundhouse project}: groups the project commands. Not thread-safe (picocli command). */
@Command(
    name = "project",
    description = "Add, list and show projects: the repositories the hub works in.",
    mixinStandardHelpOptions = true,
    subcommands = {ProjectAddCommand.class, ProjectListCommand.class, ProjectShowCommand.class})
final class ProjectCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw Cli.missingCommand(spec);
  }
}
