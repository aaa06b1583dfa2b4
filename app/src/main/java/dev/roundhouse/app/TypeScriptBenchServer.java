package dev.roundhouse.app;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The MCP TypeScript SDK's Streamable HTTP server for {@code roundhouse bench mcp}: {@code node
 * bench-server.mjs} from {@code mcp-server/src/test/node}, the folder whose {@code package-lock.json} pins
 * {@code @modelcontextprotocol/sdk} (the same one the Node client tests use, installed by {@code ./run-tests}
 * with {@code npm ci}). {@code node} is the one on {@code PATH}, as for every Node-driven test. The child
 * reads nothing but watches its stdin: closing it (in {@link #close}) ends the server.
 *
 * <p>Not thread-safe: one owner starts and closes it.
 */
final class TypeScriptBenchServer implements AutoCloseable {
  static final String FOLDER = "mcp-server/src/test/node";
  static final String SCRIPT = "bench-server.mjs";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

  private final Process process;
  private final URI endpoint;
  private final String nodeVersion;
  private final String sdkVersion;
  private final StringBuffer errors;

  private TypeScriptBenchServer(Process process, URI endpoint, String nodeVersion, String sdkVersion, StringBuffer errors) {
    this.process = process;
    this.endpoint = endpoint;
    this.nodeVersion = nodeVersion;
    this.sdkVersion = sdkVersion;
    this.errors = errors;
  }

  /**
   * Starts the server answering {@code answerFile}'s JSON for {@code task}.
   *
   * @param path the command's {@code PATH}, where {@code node} is looked for
   * @param folder the Node folder, or empty to look for {@value #FOLDER} from {@code workingDirectory} upwards
   * @throws CliFailure naming what to install when node, the folder or its packages are missing
   */
  static TypeScriptBenchServer start(Optional<String> path, Path workingDirectory, Optional<Path> folder, Path answerFile, long task)
      throws IOException, InterruptedException {
    Path node = onPath(path.orElse(""), "node").orElseThrow(() -> new CliFailure(ExitCode.FAILED,
        "node_missing", "node is not installed: bench mcp runs the MCP TypeScript SDK's server on Node.js 20 or newer; install it "
            + "(https://nodejs.org, or apt-get install nodejs npm), then run `npm ci` in " + FOLDER));
    Path dir = folder.orElseGet(() -> findFolder(workingDirectory));
    if (dir == null || !Files.isRegularFile(dir.resolve(SCRIPT))) {
      throw new CliFailure(ExitCode.FAILED, "bench_server_missing", "cannot find " + FOLDER + "/" + SCRIPT + " from " + workingDirectory
          + "; run bench mcp from the Roundhouse source tree, or pass --ts-server <folder>");
    }
    Path sdk = dir.resolve("node_modules/@modelcontextprotocol/sdk/package.json");
    if (!Files.isRegularFile(sdk)) {
      throw new CliFailure(ExitCode.FAILED, "sdk_missing", "the MCP TypeScript SDK is not installed in " + dir + ": run `npm ci` there (./run-tests does it)");
    }
    String nodeVersion = output(List.of(node.toString(), "--version")).strip();
    String sdkVersion = dev.roundhouse.hub.core.Json.mapper().readTree(sdk.toFile()).path("version").asText("?");
    Process process = new ProcessBuilder(node.toString(), SCRIPT, answerFile.toString(), Long.toString(task))
        .directory(dir.toFile())
        .redirectError(ProcessBuilder.Redirect.PIPE)
        .start();
    StringBuffer errors = new StringBuffer();
    Thread.ofVirtual().name("ts-bench-server-stderr").start(() -> {
      try (BufferedReader lines = process.errorReader(StandardCharsets.UTF_8)) {
        for (String line; (line = lines.readLine()) != null; ) {
          if (errors.length() < 4096) {
            errors.append(line).append('\n');
          }
        }
      } catch (IOException e) {
        // the process ended
      }
    });
    CompletableFuture<String> listening = CompletableFuture.supplyAsync(() -> {
      try {
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        for (String line; (line = out.readLine()) != null; ) {
          if (line.startsWith("listening ")) {
            return line.substring("listening ".length()).strip();
          }
        }
        return null;
      } catch (IOException e) {
        return null;
      }
    }, command -> Thread.ofVirtual().start(command));
    String url;
    try {
      url = listening.get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      url = null;
    }
    if (url == null) {
      stop(process);
      throw new CliFailure(ExitCode.FAILED, "bench_server_failed", "the TypeScript SDK server did not start within " + START_TIMEOUT.toSeconds() + " s: " + errors);
    }
    return new TypeScriptBenchServer(process, URI.create(url), nodeVersion, sdkVersion, errors);
  }

  URI endpoint() {
    return endpoint;
  }

  String description() {
    return "MCP TypeScript SDK " + sdkVersion + " on Node " + nodeVersion;
  }

  /** What the server wrote on stderr (its first 4 KB). */
  String errors() {
    return errors.toString();
  }

  long pid() {
    return process.pid();
  }

  @Override
  public void close() {
    stop(process);
  }

  private static void stop(Process process) {
    try {
      process.getOutputStream().close(); // the script exits when its stdin ends
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
    } catch (IOException e) {
      process.destroyForcibly();
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /** {@value #FOLDER} in the working directory or one of its parents, or null. */
  private static Path findFolder(Path workingDirectory) {
    for (Path at = workingDirectory.toAbsolutePath(); at != null; at = at.getParent()) {
      Path candidate = at.resolve(FOLDER);
      if (Files.isRegularFile(candidate.resolve(SCRIPT))) {
        return candidate;
      }
    }
    return null;
  }

  static Optional<Path> onPath(String path, String program) {
    List<Path> found = new ArrayList<>();
    for (String entry : path.split(File.pathSeparator)) {
      if (!entry.isEmpty()) {
        Path candidate = Path.of(entry, program);
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          found.add(candidate);
        }
      }
    }
    return found.stream().findFirst();
  }

  private static String output(List<String> command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    process.getOutputStream().close();
    String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    process.waitFor(10, TimeUnit.SECONDS);
    return text;
  }
}
