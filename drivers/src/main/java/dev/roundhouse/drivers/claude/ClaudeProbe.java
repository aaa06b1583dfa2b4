package dev.roundhouse.drivers.claude;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.drivers.process.AgentCommand;
import dev.roundhouse.drivers.process.ProbeDirectory;
import dev.roundhouse.drivers.process.ProcessGroups;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.spi.AuthStatus;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Asks the installed CLI about itself with short-lived commands: {@code --version}, {@code --help} (for
 * {@link CliHelp}) and {@code auth status} (its JSON). Each runs in a process group of its own with the
 * sessions' environment, in the sessions' home ({@link ProbeDirectory}), and is killed at {@code timeout}.
 * Stateless; thread-safe.
 */
final class ClaudeProbe {
  /** What a command printed. */
  record Output(int exitCode, String stdout, String stderr) {}

  private final AgentCommand command;
  private final Map<String, String> environment;
  private final Duration timeout;

  ClaudeProbe(AgentCommand command, Map<String, String> environment, Duration timeout) {
    this.command = command;
    this.environment = Map.copyOf(environment);
    this.timeout = timeout;
  }

  /** Where the program is, or empty when it is neither an executable path nor on the sessions' PATH. */
  Optional<Path> program() {
    String program = command.program();
    if (program.contains("/")) {
      Path path = Path.of(program);
      return Files.isExecutable(path) ? Optional.of(path) : Optional.empty();
    }
    String path = environment.get("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String folder : path.split(File.pathSeparator)) {
      if (!folder.isEmpty() && Files.isExecutable(Path.of(folder, program))) {
        return Optional.of(Path.of(folder, program));
      }
    }
    return Optional.empty();
  }

  /** The first line of {@code claude --version}, such as {@code 2.1.332 (Claude Code)}. */
  Optional<String> version() {
    return run(List.of("--version")).filter(out -> out.exitCode() == 0).map(out -> out.stdout().strip().lines().findFirst().orElse("")).filter(line -> !line.isEmpty());
  }

  CliHelp help() {
    return run(List.of("--help")).filter(out -> out.exitCode() == 0).map(out -> CliHelp.parse(out.stdout())).orElse(CliHelp.NONE);
  }

  /** Installed? which version? a login or key? In one sentence. */
  AuthStatus authStatus() {
    Optional<Path> program = program();
    if (program.isEmpty()) {
      return AuthStatus.problem("Claude Code is not installed: " + (command.program().contains("/")
          ? command.program() + " is not an executable file"
          : "`" + command.program() + "` is not on PATH") + " (install it with `npm install -g @anthropic-ai/claude-code`, or configure its path)");
    }
    Optional<String> version = version();
    if (version.isEmpty()) {
      return AuthStatus.problem("Claude Code at " + program.get() + " did not answer `--version` within " + timeout.toSeconds() + " s");
    }
    String name = "Claude Code " + version.get().replace(" (Claude Code)", "") + " (" + program.get() + ")";
    Optional<Output> status = run(List.of("auth", "status"));
    JsonNode json = status.map(out -> readJson(out.stdout())).orElse(null);
    if (json == null) {
      return AuthStatus.problem(name + " is installed, but `claude auth status` gave no answer it could read"
          + status.map(out -> ": " + firstLine(out.stderr() + out.stdout())).orElse(" within " + timeout.toSeconds() + " s"));
    }
    if (!json.path("loggedIn").asBoolean(false)) {
      return AuthStatus.problem(name + " is installed but has no login or API key: run `claude auth login`, or set ANTHROPIC_API_KEY for the hub or in the driver's env");
    }
    String method = json.path("authMethod").asText("");
    String source = json.path("apiKeySource").asText("");
    String how = method.equals("api_key") ? "an API key" + (source.isEmpty() ? "" : " from " + source) : method.isEmpty() ? "a login" : "a login (" + method + ")";
    return AuthStatus.ok(name + ", logged in with " + how);
  }

  /** Runs the program with its configured arguments and {@code args}; empty when it could not run in time. */
  Optional<Output> run(List<String> args) {
    if (program().isEmpty()) {
      return Optional.empty();
    }
    ProcessBuilder builder = new ProcessBuilder(ProcessGroups.inOwnGroup(command.commandLine(args)));
    builder.environment().clear();
    builder.environment().putAll(environment);
    builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    builder.directory(ProbeDirectory.of(environment));
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      return Optional.empty();
    }
    CompletableFuture<String> stdout = CompletableFuture.supplyAsync(() -> drain(process.getInputStream()), task -> Thread.ofVirtual().start(task));
    CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> drain(process.getErrorStream()), task -> Thread.ofVirtual().start(task));
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        ProcessGroups.killTree(process.toHandle());
        return Optional.empty();
      }
      return Optional.of(new Output(process.exitValue(), stdout.get(2, TimeUnit.SECONDS), stderr.get(2, TimeUnit.SECONDS)));
    } catch (InterruptedException e) {
      ProcessGroups.killTree(process.toHandle());
      Thread.currentThread().interrupt();
      return Optional.empty();
    } catch (ExecutionException | TimeoutException e) {
      return Optional.empty(); // it exited but left its output open: a child of its own holds it
    }
  }

  private static String drain(InputStream stream) {
    try (stream) {
      return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }

  private static JsonNode readJson(String text) {
    int start = text.indexOf('{');
    if (start < 0) {
      return null;
    }
    try {
      return Json.mapper().readTree(text.substring(start));
    } catch (IOException e) {
      return null;
    }
  }

  private static String firstLine(String text) {
    return text.strip().lines().findFirst().orElse("(nothing)");
  }
}
