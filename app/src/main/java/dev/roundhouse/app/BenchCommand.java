package dev.roundhouse.app;

import dev.roundhouse.hub.bench.EventAppendBenchmark;
import dev.roundhouse.hub.core.DatabaseUrl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code roundhouse bench}: durable event append+publish with group commit against one transaction per
 * event, measured in the same run on the same disk, in a scratch folder that is deleted afterwards. Needs
 * no running hub and never touches the home.
 *
 * <p>Not thread-safe: picocli fills it and runs it once, on one thread.
 */
@Command(
    name = "bench",
    description = "Measure durable event append+publish: group commit vs one transaction per event.",
    mixinStandardHelpOptions = true,
    subcommands = {BenchTurnsCommand.class, BenchMcpCommand.class, BenchSchedulerCommand.class, BenchServicesCommand.class,
        BenchWorkspaceCommand.class, BenchStartCommand.class})
final class BenchCommand implements Callable<Integer> {
  private final Context context;

  @Spec CommandSpec spec;

  @Option(names = "--producers", defaultValue = "128", description = "Concurrent writers (default ${DEFAULT-VALUE}).")
  int producers;

  @Option(names = "--events", defaultValue = "400", description = "Events each writer appends (default ${DEFAULT-VALUE}).")
  int events;

  @Option(names = "--dir", description = "Scratch folder for the databases (default: a new temporary folder).")
  Path dir;

  @Option(names = "--database", paramLabel = "URL",
      description = "Also measure group commit on this PostgreSQL database (postgresql://user@host/db), in a schema"
          + " made for the run and dropped after it; no hub may be using the database.")
  String database;

  @Option(names = "--min-ratio", description = "Exit 1 when group commit is less than this many times faster.")
  Double minRatio;

  BenchCommand(Context context) {
    this.context = context;
  }

  @Override
  public Integer call() throws Exception {
    if (producers < 1 || events < 1) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--producers and --events must be at least 1");
    }
    Path scratch = dir != null
        ? Files.createDirectories(context.resolve(dir.toString())).resolve("roundhouse-bench-" + ProcessHandle.current().pid())
        : Files.createTempDirectory("roundhouse-bench-");
    Files.createDirectories(scratch);
    try {
      EventAppendBenchmark.Result result =
          new EventAppendBenchmark(scratch, producers, events,
              database == null ? null : DatabaseUrl.parse(database, context.env())).run(spec.commandLine().getOut());
      return minRatio != null && result.ratio() < minRatio ? ExitCode.FAILED.status() : ExitCode.OK.status();
    } finally {
      ScratchFolders.delete(scratch);
    }
  }

}
