package dev.roundhouse.app;

import dev.roundhouse.hub.core.Json;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code roundhouse bench scheduler}: many active schedules in a throwaway in-process hub (scratch home, deleted
 * afterwards): the cost of a tick with nothing due, the heap, and the lag from a due minute to each turn's start
 * when many come due together, each against its baseline measured in the same run.
 *
 * <p>Not thread-safe: picocli fills it and runs it once, on one thread.
 */
@Command(
    name = "scheduler",
    description = "Measure the scheduler with many active schedules: tick cost, heap, firing lag of many due at once.",
    mixinStandardHelpOptions = true)
final class BenchSchedulerCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--schedules", defaultValue = "10000", description = "Active schedules (default ${DEFAULT-VALUE}).")
  int schedules;

  @Option(names = "--due", defaultValue = "1000", description = "Schedules due in the same minute (default ${DEFAULT-VALUE}).")
  int due;

  @Option(names = "--ticks", defaultValue = "200", description = "Ticks measured with nothing due, per case (default ${DEFAULT-VALUE}).")
  int ticks;

  @Option(names = "--idle-firings", defaultValue = "10",
      description = "Firings of the idle hub's own timer measured for the baseline (default ${DEFAULT-VALUE}).")
  int idleFirings;

  @Option(names = "--json", description = "Print the figures as one JSON object instead of text.")
  boolean json;

  BenchSchedulerCommand(Context context) {
    // The scratch home is always a new temporary folder; nothing of the context is needed.
  }

  @Override
  public Integer call() throws Exception {
    if (due < 1 || schedules < due + 1) {
      throw new ParameterException(spec.commandLine(), "--due must be at least 1 and --schedules at least --due + 1"
          + " (one schedule fires alone in its minute)");
    }
    if (ticks < 1 || idleFirings < 1) {
      throw new ParameterException(spec.commandLine(), "--ticks and --idle-firings must be at least 1");
    }
    Path scratch = Files.createTempDirectory("roundhouse-bench-scheduler-");
    try {
      PrintWriter out = spec.commandLine().getOut();
      SchedulerBenchmark.Figures figures = new SchedulerBenchmark(scratch, schedules, due, ticks, idleFirings).run(json ? null : out);
      if (json) {
        out.println(Json.write(figures));
        out.flush();
      }
      return ExitCode.OK.status();
    } finally {
      ScratchFolders.delete(scratch);
    }
  }
}
