package dev.roundhouse.app;

import dev.roundhouse.hub.Hub;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The top of the command tree. Run without a command it is a usage error. Not thread-safe: picocli fills
 * it and runs it once, on one thread.
 */
@Command(
    name = "roundhouse",
    mixinStandardHelpOptions = true,
    versionProvider = RoundhouseCommand.Version.class,
    description = "A headless hub for coding agents. See docs/cli.md.",
    subcommands = {
      ServeCommand.class,
      ProjectCommand.class,
      TaskCommand.class,
      ServiceCommand.class,
      ShellCommand.class,
      RunbookCommand.class,
      ScheduleCommand.class,
      McpCommand.class,
      EventsCommand.class,
      OpsCommand.class,
      DoctorCommand.class,
      BenchCommand.class,
      RunCommand.class,
      DemoCommand.class,
      LspCommand.class,
      AcpCommand.class
    })
final class RoundhouseCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw Cli.missingCommand(spec);
  }

  /** {@code roundhouse <version> (Java <version>)}. Stateless. */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"roundhouse " + Hub.version() + " (Java " + Runtime.version() + ")"};
    }
  }
}
