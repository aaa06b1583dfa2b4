package dev.roundhouse.app;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code roundhouse bench start}: cold start of {@code serve} to a healthy {@code /api/health} and of each stdio
 * face to its answer to {@code initialize}, through the launcher, with and without its start cache, against the
 * MCP TypeScript SDK's stdio server in the same run ({@link StartBenchmark}). Homes are scratch folders, deleted
 * afterwards.
 *
 * <p>Not thread-safe: picocli fills it and runs it once, on one thread.
 */
@Command(
    name = "start",
    description = "Measure cold starts (serve, mcp, acp, lsp) through the launcher against the MCP TypeScript SDK's stdio server.",
    mixinStandardHelpOptions = true)
final class BenchStartCommand implements Callable<Integer> {
  private final Context context;

  @Spec CommandSpec spec;

  @Option(names = "--runs", defaultValue = "3", description = "Starts of each target (default ${DEFAULT-VALUE}).")
  int runs;

  @Option(names = "--launcher", paramLabel = "FILE",
      description = "The launcher to start roundhouse with (default: the ./roundhouse beside this jar's app/target, else looked for from the working directory up).")
  Path launcher;

  @Option(names = "--ts-server", paramLabel = "FOLDER",
      description = "The Node folder with start-server.mjs and its node_modules (default: mcp-server/src/test/node, looked for from the working directory up).")
  Path tsServer;

  @Option(names = "--max-mcp-ms", description = "Exit 1 when mcp's median start (with the start cache) is this many milliseconds or more.")
  Double maxMcpMillis;

  BenchStartCommand(Context context) {
    this.context = context;
  }

  @Override
  public Integer call() throws Exception {
    if (runs < 1 || runs > 100) {
      throw new ParameterException(spec.commandLine(), "--runs must be between 1 and 100");
    }
    Path script = launcher != null ? context.resolve(launcher.toString()) : findLauncher();
    if (script == null || !Files.isExecutable(script)) {
      throw new CliFailure(ExitCode.FAILED, "launcher_missing", "cannot find the roundhouse launcher"
          + (script == null ? "" : " at " + script) + "; run bench start from the Roundhouse source tree, or pass --launcher <file>");
    }
    Path node = TypeScriptBenchServer.onPath(context.variable("PATH").orElse(""), "node").orElseThrow(() -> new CliFailure(ExitCode.FAILED,
        "node_missing", "node is not installed: bench start runs the MCP TypeScript SDK's stdio server on Node.js 20 or newer; install it, then run `npm ci` in "
            + StartBenchmark.NODE_FOLDER));
    Path folder = tsServer != null ? context.resolve(tsServer.toString()) : find(StartBenchmark.NODE_FOLDER);
    if (folder == null || !Files.isRegularFile(folder.resolve(StartBenchmark.SCRIPT))
        || !Files.isDirectory(folder.resolve("node_modules/@modelcontextprotocol/sdk"))) {
      throw new CliFailure(ExitCode.FAILED, "sdk_missing", "cannot find " + StartBenchmark.NODE_FOLDER + "/" + StartBenchmark.SCRIPT
          + " with the MCP TypeScript SDK installed beside it (run `npm ci` there; ./run-tests does it), or pass --ts-server <folder>");
    }
    Path scratch = Files.createTempDirectory("roundhouse-bench-start-");
    try {
      Map<String, StartBenchmark.Figures> figures = new StartBenchmark(scratch, List.of(script.toString()), node, folder, context.env(), runs)
          .run(spec.commandLine().getOut());
      StartBenchmark.Figures mcp = figures.get("roundhouse mcp -> initialize");
      return maxMcpMillis != null && mcp != null && mcp.median() >= maxMcpMillis ? ExitCode.FAILED.status() : ExitCode.OK.status();
    } finally {
      ScratchFolders.delete(scratch);
    }
  }

  /** The launcher beside this jar ({@code <root>/app/target/roundhouse.jar} -> {@code <root>/roundhouse}), else from the working directory up. */
  private Path findLauncher() {
    Path jar = Path.of(System.getProperty("java.class.path").split(java.io.File.pathSeparator)[0]).toAbsolutePath();
    Path root = jar.getParent() != null && jar.getParent().getParent() != null ? jar.getParent().getParent().getParent() : null;
    if (root != null && Files.isExecutable(root.resolve("roundhouse")) && Files.isRegularFile(root.resolve("scripts/start-cache.sh"))) {
      return root.resolve("roundhouse");
    }
    Path found = find("roundhouse");
    return found != null && Files.isRegularFile(found) ? found : null;
  }

  private Path find(String relative) {
    for (Path at = context.workingDirectory(); at != null; at = at.getParent()) {
      if (Files.exists(at.resolve(relative))) {
        return at.resolve(relative);
      }
    }
    return null;
  }
}
