package dev.roundhouse.app;

import dev.roundhouse.hub.Hub;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
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
    description = "A headless hub for coding agents. See docs/cli.md.")
final class RoundhouseCommand implements Runnable {
  /**
   * The commands, in the order help lists them. {@link Cli} adds them to the tree itself (not through
   * {@code @Command(subcommands)}), so a run of one of them builds only its own branch: picocli reads every
   * command's annotations reflectively, which cost a stdio face most of a second of CPU when it built all.
   */
  static final Map<String, Class<?>> COMMANDS = commands(
      ServeCommand.class,
      ProjectCommand.class,
      TaskCommand.class,
      ServiceCommand.class,
      ShellCommand.class,
      RunbookCommand.class,
      ScheduleCommand.class,
      McpCommand.class,
      McpClientCommand.class,
      DecisionsCommand.class,
      EventsCommand.class,
      OpsCommand.class,
      DoctorCommand.class,
      StoreCommand.class,
      BenchCommand.class,
      RunCommand.class,
      DemoCommand.class,
      LspCommand.class,
      AcpCommand.class,
      CompletionCommand.class,
      HelpCommand.class,
      StartTrainingCommand.class);

  /** The commands that need the whole tree whatever follows them: help about another command, completion of all. */
  static final Set<Class<?>> WHOLE_TREE = Set.of(CompletionCommand.class, HelpCommand.class);

  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw Cli.missingCommand(spec);
  }

  private static Map<String, Class<?>> commands(Class<?>... types) {
    Map<String, Class<?>> byName = new LinkedHashMap<>();
    for (Class<?> type : types) {
      byName.put(type.getAnnotation(Command.class).name(), type);
    }
    return Collections.unmodifiableMap(byName);
  }

  /** {@code roundhouse <version> (Java <version>)}. Stateless. */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"roundhouse " + Hub.version() + " (Java " + Runtime.version() + ")"};
    }
  }
}
