package dev.roundhouse.app;

import dev.roundhouse.drivers.script.ScriptDriver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code roundhouse bench turns}: concurrent script-driver turns through a hub in a scratch home (deleted
 * afterwards) and a live SSE viewer; prints events/s, emit-to-viewer latency and peak RSS.
 *
 * <p>Not thread-safe: picocli fills it and runs it once, on one thread.
 */
@Command(
    name = "turns",
    description = "Measure concurrent script-driver turns: events/s, emit -> SSE latency, RSS.",
    mixinStandardHelpOptions = true)
final class BenchTurnsCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--turns", defaultValue = "50", description = "Concurrent turns (default ${DEFAULT-VALUE}).")
  int turns;

  @Option(names = "--events", defaultValue = "10000", description = "Events each turn emits (default ${DEFAULT-VALUE}).")
  int events;

  @Option(names = "--warmup", defaultValue = "2000",
      description = "Events each turn emits first, in a round that is not measured (default ${DEFAULT-VALUE}; 0 for none).")
  int warmup;

  @Option(names = "--rate", defaultValue = "0",
      description = "Events per second each turn emits, paced; 0 (the default) emits as fast as the hub takes them.")
  int rate;

  BenchTurnsCommand(Context context) {
    // The scratch home is always a new temporary folder; nothing of the context is needed.
  }

  @Override
  public Integer call() throws Exception {
    if (turns < 1 || events < 1) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--turns and --events must be at least 1");
    }
    if (warmup < 0) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--warmup must be 0 or more");
    }
    if (rate < 0 || rate > 1_000_000) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--rate must be between 0 and 1000000 events/s");
    }
    Path home = Files.createTempDirectory("roundhouse-bench-turns-");
    try {
      new TurnsBenchmark(home, turns, events, warmup, rate, ScriptDriver::new).run(spec.commandLine().getOut());
      return ExitCode.OK.status();
    } finally {
      ScratchFolders.delete(home);
    }
  }
}
