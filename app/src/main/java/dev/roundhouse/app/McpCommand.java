package dev.roundhouse.app;

import dev.roundhouse.hub.HomeLock;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.mcpserver.McpServers;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code roundhouse mcp}: MCP over stdio, for clients that start their servers as a command (Claude
 * Desktop, Claude Code, Cursor, Codex, the Inspector). It attaches to the running hub's Streamable HTTP
 * endpoint ({@code /mcp}, with {@code $ROUNDHOUSE_HOME/mcp-token}) and relays every JSON-RPC line both ways
 * until stdin closes. When no hub runs for the home it starts one in the background ({@code roundhouse
 * serve}, detached, logging to {@code $ROUNDHOUSE_HOME/hub.log}) and waits for it to publish its URL, unless
 * {@code --no-start}. stdout carries JSON-RPC only; messages go to stderr.
 *
 * <p>Not thread-safe: picocli fills it and runs it once, on one thread.
 */
@Command(
    name = "mcp",
    description = "MCP over stdio, relayed to the running hub's /mcp (starting a hub in the background if none runs).",
    mixinStandardHelpOptions = true)
final class McpCommand implements Callable<Integer> {
  /** How long a hub started here may take to publish its URL. */
  static final Duration START_DEADLINE = Duration.ofSeconds(60);

  private final Context context;

  @Spec CommandSpec spec;

  @Option(names = "--no-start", description = "Exit 3 instead of starting a hub when none runs.")
  boolean noStart;

  McpCommand(Context context) {
    this.context = context;
  }

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    HubEndpoint endpoint;
    try {
      endpoint = HubEndpoint.locate(context);
    } catch (CliFailure e) {
      if (noStart || context.variable(HubEndpoint.URL_VARIABLE).isPresent() || !"hub_not_running".equals(e.code())) {
        throw e;
      }
      endpoint = startHub(err);
    }
    return McpServers.bridgeStdio(endpoint.url(), endpoint.home(), context.stdin(), spec.commandLine().getOut());
  }

  /** Starts {@code roundhouse serve} detached, and waits for its URL in the lock file. */
  private HubEndpoint startHub(PrintWriter err) {
    HubConfig config = context.hubConfig();
    Path log = config.home().resolve("hub.log");
    List<String> command = new ArrayList<>();
    if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
      command.add("/usr/bin/setsid"); // its own session: the client's terminal signals do not reach it
    }
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx512m");
    command.add("--enable-native-access=ALL-UNNAMED");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(Main.class.getName());
    command.add("serve");
    ProcessBuilder builder = new ProcessBuilder(command).directory(context.workingDirectory().toFile());
    builder.environment().clear();
    builder.environment().putAll(context.env());
    builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.redirectErrorStream(true);
    Process process;
    try {
      Files.createDirectories(config.home());
      process = builder.start();
    } catch (IOException e) {
      throw new CliFailure(ExitCode.NO_HUB, "hub_not_started", "cannot start a hub for " + config.home() + ": " + e.getMessage(), e);
    }
    err.println("roundhouse mcp: no hub was running for " + config.home() + "; started one in the background (pid "
        + process.pid() + ", log " + log + ")");
    err.flush();
    long deadline = System.nanoTime() + START_DEADLINE.toNanos();
    while (System.nanoTime() < deadline) {
      if (HomeLock.isHeld(config.lockFile()) && HomeLock.readHolder(config.lockFile()).map(h -> h.path("url").isTextual()).orElse(false)) {
        return HubEndpoint.locate(context);
      }
      if (!process.isAlive() && process.exitValue() != ExitCode.HOME_LOCKED.status()) {
        throw new CliFailure(ExitCode.NO_HUB, "hub_not_started",
            "the hub started for " + config.home() + " exited with status " + process.exitValue() + "; see " + log);
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    throw new CliFailure(ExitCode.NO_HUB, "hub_not_started",
        "the hub started for " + config.home() + " did not publish its URL within " + START_DEADLINE.toSeconds() + " s; see " + log);
  }
}
