package dev.roundhouse.app;

import dev.roundhouse.hub.core.RoundhouseException;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Builds the {@code roundhouse} command tree for one run and maps failures onto {@link ExitCode}s: a
 * {@link CliFailure} or a hub error prints {@code roundhouse: <message>} on stderr; usage errors are
 * picocli's (message and usage, status 2). Stateless; each {@link CommandLine} it builds serves one run on
 * one thread.
 */
final class Cli {
  private Cli() {}

  /** The whole command tree, writing command output to {@code out} and diagnostics to {@code err}. */
  static CommandLine commandLine(Context context, PrintWriter out, PrintWriter err) {
    return commandLine(context, out, err, (String[]) null);
  }

  /**
   * The command tree for a run of {@code args}: when the first argument names a command, only that command's
   * branch (what the run needs, and all of it: its options, its subcommands, its help); otherwise every command,
   * for the top-level help, {@code help <command>}, {@code completion}, the version and the usage errors that list
   * or suggest commands.
   */
  static CommandLine commandLine(Context context, PrintWriter out, PrintWriter err, String... args) {
    CommandFactory factory = new CommandFactory(context);
    CommandLine commandLine = new CommandLine(RoundhouseCommand.class, factory);
    Class<?> named = args != null && args.length > 0 ? RoundhouseCommand.COMMANDS.get(args[0]) : null;
    Class<?> only = named == null || RoundhouseCommand.WHOLE_TREE.contains(named) ? null : named;
    RoundhouseCommand.COMMANDS.forEach((name, type) -> {
      if (only == null || only == type) {
        commandLine.addSubcommand(name, new CommandLine(type, factory));
      }
    });
    commandLine.setOut(out);
    commandLine.setErr(err);
    commandLine.setExecutionExceptionHandler(Cli::report);
    return commandLine;
  }

  /** Runs {@code args} and returns the exit status. */
  static int run(Context context, PrintWriter out, PrintWriter err, String... args) {
    try {
      return commandLine(context, out, err, args).execute(args);
    } finally {
      out.flush();
      err.flush();
    }
  }

  /** The usage error for a command group run without one of its commands: names them all. */
  static ParameterException missingCommand(CommandSpec group) {
    List<String> names = List.copyOf(group.subcommands().keySet());
    String choices =
        names.size() == 1
            ? names.getFirst()
            : String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.getLast();
    String what = group.parent() == null ? "a command" : "a " + group.name() + " command";
    return new ParameterException(group.commandLine(), "name " + what + ": " + choices);
  }

  private static int report(Exception failure, CommandLine command, ParseResult parsed) {
    return report(failure, command.getErr());
  }

  /** Reports a command's failure on {@code err} as the CLI does, and returns the exit status. */
  static int report(Exception failure, PrintWriter err) {
    int status;
    if (failure instanceof CliFailure known) {
      err.println("roundhouse: " + known.getMessage());
      status = known.exit().status();
    } else if (failure instanceof RoundhouseException known) {
      err.println("roundhouse: " + known.getMessage());
      status = ExitCode.FAILED.status();
    } else {
      err.println("roundhouse: internal error: " + failure);
      failure.printStackTrace(err);
      status = ExitCode.FAILED.status();
    }
    err.flush();
    return status;
  }
}
