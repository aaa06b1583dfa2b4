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
 * {@code roundhouse bench services}: a dev service's log under load with viewers following, against the same
 * program writing to /dev/null; and terminal keystroke-to-echo latency through the hub against a local PTY. In a
 * throwaway in-process hub (scratch home, deleted afterwards). See {@link ServicesBenchmark}.
 *
 * <p>Not thread-safe: picocli fills it and runs it once, on one thread.
 */
@Command(
    name = "services",
    description = "Measure dev services: log throughput with viewers vs /dev/null, hub CPU and memory; terminal echo latency vs a local PTY.",
    mixinStandardHelpOptions = true)
final class BenchServicesCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--megabytes", defaultValue = "200", description = "Log the service writes, in MB (default ${DEFAULT-VALUE}).")
  int megabytes;

  @Option(names = "--viewers", defaultValue = "10", description = "Viewers following the log over SSE (default ${DEFAULT-VALUE}).")
  int viewers;

  @Option(names = "--keystrokes", defaultValue = "2000", description = "Keystrokes timed per terminal (default ${DEFAULT-VALUE}).")
  int keystrokes;

  @Option(names = "--json", description = "Print the figures as one JSON object instead of text.")
  boolean json;

  @Option(names = "--min-ratio", description = "Exit 1 when the service's throughput as a hub service is below this fraction of /dev/null's.")
  Double minRatio;

  BenchServicesCommand(Context context) {
    // The scratch home is always a new temporary folder; nothing of the context is needed.
  }

  @Override
  public Integer call() throws Exception {
    if (megabytes < 1 || viewers < 0 || keystrokes < 10) {
      throw new ParameterException(spec.commandLine(), "--megabytes must be at least 1, --viewers at least 0, --keystrokes at least 10");
    }
    Path scratch = Files.createTempDirectory("roundhouse-bench-services-");
    try {
      PrintWriter out = spec.commandLine().getOut();
      ServicesBenchmark.Figures figures = new ServicesBenchmark(scratch, megabytes * 1_000_000L, viewers, keystrokes).run(json ? null : out);
      if (json) {
        out.println(Json.write(figures));
        out.flush();
      }
      return minRatio != null && figures.ratio() < minRatio ? ExitCode.FAILED.status() : ExitCode.OK.status();
    } finally {
      ScratchFolders.delete(scratch);
    }
  }
}
