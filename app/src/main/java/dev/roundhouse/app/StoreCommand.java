package dev.roundhouse.app;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code roundhouse store}: groups the commands about the hub's database. Not thread-safe (picocli command). */
@Command(
    name = "store",
    description = "Work on the hub's database itself (with no hub running on it).",
    mixinStandardHelpOptions = true,
    subcommands = {StoreCopyCommand.class})
final class StoreCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw Cli.missingCommand(spec);
  }
}
