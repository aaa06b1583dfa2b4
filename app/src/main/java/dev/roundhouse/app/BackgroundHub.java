package dev.roundhouse.app;

import dev.roundhouse.hub.HomeLock;
import dev.roundhouse.hub.HubConfig;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the running hub for a stdio face ({@code mcp}, {@code lsp}, {@code acp}), starting one in the
 * background when none runs: {@code roundhouse serve} detached in its own session, logging to {@code
 * $ROUNDHOUSE_HOME/hub.log}, and waits (with a deadline) for it to publish its URL. A hub that holds the
 * home but has not published its URL yet (one starting up) is waited for the same way. The started hub keeps
 * running after the face exits, so turns outlive the editor. Stateless.
 */
final class BackgroundHub {
  /** How long a hub started here may take to publish its URL. */
  static final Duration START_DEADLINE = Duration.ofSeconds(60);

  private BackgroundHub() {}

  /**
   * The running hub (waiting for one still starting to publish its URL), or one started now.
   *
   * @param noStart fail (exit 3) instead of starting one
   */
  static HubEndpoint locateOrStart(Context context, PrintWriter err, String command, boolean noStart) {
    try {
      return HubEndpoint.locate(context);
    } catch (CliFailure e) {
      if ("hub_starting".equals(e.code())) {
        return awaitUrl(context, null);
      }
      if (noStart || context.variable(HubEndpoint.URL_VARIABLE).isPresent() || !"hub_not_running".equals(e.code())) {
        throw e;
      }
      return start(context, err, command);
    }
  }

  /** Starts {@code roundhouse serve} detached, and waits for its URL in the lock file. */
  private static HubEndpoint start(Context context, PrintWriter err, String command) {
    HubConfig config = context.hubConfig();
    Path log = config.home().resolve("hub.log");
    List<String> line = new ArrayList<>();
    if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
      line.add("/usr/bin/setsid"); // its own session: the client's terminal signals do not reach it
    }
    line.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    line.add("-Xmx512m");
    line.add("-Xms64m"); // as the launcher (its comment says why)
    if (Runtime.version().feature() >= 23) {
      line.add("--sun-misc-unsafe-memory-access=allow"); // as the launcher: no Unsafe warning in hub.log (JDK 24+)
    }
    List<String> cache = StartCache.jvmOptions();
    if (cache.isEmpty()) {
      line.add("--enable-native-access=ALL-UNNAMED");
      line.add("-cp");
      line.add(System.getProperty("java.class.path"));
      line.add(Main.class.getName());
    } else {
      // Started by the launcher, from its start cache: the same cache, and the jar started as the launcher starts it
      // (-jar, whose manifest enables native access), since the cache holds only for the options it was made with.
      line.addAll(cache);
      line.add("-jar");
      line.add(System.getProperty("java.class.path"));
    }
    line.add("serve");
    ProcessBuilder builder = new ProcessBuilder(line).directory(context.workingDirectory().toFile());
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
    err.println("roundhouse " + command + ": no hub was running for " + config.home() + "; started one in the background (pid "
        + process.pid() + ", log " + log + ")");
    err.flush();
    return awaitUrl(context, process);
  }

  /**
   * Waits for the hub holding the home's lock to publish its URL, up to {@link #START_DEADLINE}.
   *
   * @param started the hub started here, or null when waiting for one started elsewhere
   */
  private static HubEndpoint awaitUrl(Context context, Process started) {
    HubConfig config = context.hubConfig();
    Path log = config.home().resolve("hub.log");
    long deadline = System.nanoTime() + START_DEADLINE.toNanos();
    while (System.nanoTime() < deadline) {
      boolean held = HomeLock.isHeld(config.lockFile());
      if (held && HomeLock.readHolder(config.lockFile()).map(h -> h.path("url").isTextual()).orElse(false)) {
        return HubEndpoint.locate(context);
      }
      if (started == null && !held) {
        throw HubEndpoint.notRunning(config.home()); // the hub that was starting is gone
      }
      if (started != null && !started.isAlive() && started.exitValue() != ExitCode.HOME_LOCKED.status()) {
        throw new CliFailure(ExitCode.NO_HUB, "hub_not_started",
            "the hub started for " + config.home() + " exited with status " + started.exitValue() + "; see " + log);
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    throw new CliFailure(ExitCode.NO_HUB, "hub_not_started",
        "the hub " + (started == null ? "starting" : "started") + " for " + config.home() + " did not publish its URL within "
            + START_DEADLINE.toSeconds() + " s; see " + log);
  }
}
