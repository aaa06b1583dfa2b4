package dev.roundhouse.app;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code roundhouse bench mcp}: {@code tools/call} throughput and latency over Streamable HTTP, the hub's
 * {@code /mcp} against the MCP TypeScript SDK's server, same load generator, same run; prints the ratios. The
 * hub runs in this process on a scratch home that is deleted afterwards; the TypeScript server runs on the
 * {@code node} on PATH.
 *
 * <p>Not thread-safe: picocli fills it and runs it once, on one thread.
 */
@Command(
    name = "mcp",
    description = "Measure MCP tools/call over Streamable HTTP: the hub against the MCP TypeScript SDK's server.",
    mixinStandardHelpOptions = true)
final class BenchMcpCommand implements Callable<Integer> {
  private final Context context;

  @Spec CommandSpec spec;

  @Option(names = "--sessions", defaultValue = "16", description = "Concurrent MCP sessions, each calling back to back (default ${DEFAULT-VALUE}).")
  int sessions;

  @Option(names = "--seconds", defaultValue = "10", description = "Measured seconds per server (default ${DEFAULT-VALUE}).")
  int seconds;

  @Option(names = "--warmup", defaultValue = "30", description = "Warm-up seconds per server, not counted (default ${DEFAULT-VALUE}).")
  int warmup;

  @Option(names = "--ts-server", paramLabel = "FOLDER",
      description = "The Node folder with bench-server.mjs and its node_modules (default: mcp-server/src/test/node, looked for from the working directory up).")
  Path tsServer;

  @Option(names = "--min-ratio", description = "Exit 1 when the hub's throughput is less than this many times the TypeScript server's.")
  Double minRatio;

  BenchMcpCommand(Context context) {
    this.context = context;
  }

  @Override
  public Integer call() throws Exception {
    if (sessions < 1 || sessions > 1024) {
      throw new ParameterException(spec.commandLine(), "--sessions must be between 1 and 1024");
    }
    if (seconds < 1 || warmup < 0) {
      throw new ParameterException(spec.commandLine(), "--seconds must be at least 1 and --warmup at least 0");
    }
    Path home = Files.createTempDirectory("roundhouse-bench-mcp-");
    try {
      McpBenchmark.Figures figures = new McpBenchmark(home, context.variable("PATH"), context.resolve("."), Optional.ofNullable(tsServer).map(dir -> context.resolve(dir.toString())),
          sessions, Duration.ofSeconds(warmup), Duration.ofSeconds(seconds)).run(spec.commandLine().getOut());
      boolean answered = figures.roundhouse().calls() > 0 && figures.typescript().calls() > 0;
      return !answered || (minRatio != null && figures.throughputRatio() < minRatio) ? ExitCode.FAILED.status() : ExitCode.OK.status();
    } finally {
      ScratchFolders.delete(home);
    }
  }
}
